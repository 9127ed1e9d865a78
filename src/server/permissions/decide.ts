import type { ExecutionMode } from "../../protocol/index.ts";
import type { AnyToolContract } from "../tools/contract.ts";
import { decideWithRules } from "./policy.ts";

/**
 * `ask` with `by: "tool"` is Q5's ask: the tool puts its own question to the user through the
 * question service, so the executor runs it without an approval card.
 */
export type PermissionVerdict =
  | { type: "allow" }
  | { type: "ask"; by?: "tool" }
  | { type: "deny"; reason: string };

/** Decides whether a validated tool call may run now, must ask the user first, or may not run. */
export type PermissionCheck = (
  tool: AnyToolContract,
  input: unknown,
  mode: ExecutionMode,
) => PermissionVerdict;

/** The policy with no project rules and nothing disallowed (see `PermissionService` for both). */
export const decidePermission: PermissionCheck = (tool, input, mode) =>
  decideWithRules({ tool, input, mode }).verdict;
