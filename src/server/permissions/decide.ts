import type { ExecutionMode } from "../../protocol/index.ts";
import type { AnyToolContract } from "../tools/contract.ts";

export type PermissionVerdict =
  | { type: "allow" }
  | { type: "ask" }
  | { type: "deny"; reason: string };

/** Decides whether a validated tool call may run now, must ask the user first, or may not run. */
export type PermissionCheck = (
  tool: AnyToolContract,
  input: unknown,
  mode: ExecutionMode,
) => PermissionVerdict;

const allow: PermissionVerdict = { type: "allow" };

/**
 * The default policy until plan mode brings its own. Tools that declare
 * `requiresUserInteraction` run: they put their question to the user themselves (Q5).
 */
export const decidePermission: PermissionCheck = (tool, _input, mode) => {
  if (tool.requiresUserInteraction || tool.readOnly) return allow;
  if (mode.planEnabled) {
    return { type: "deny", reason: `plan mode is read-only, so ${tool.name} cannot run now` };
  }
  if (mode.permissionMode === "yolo") return allow;
  return { type: "ask" };
};
