import { MODE_NAMES, type ModeName } from "../../protocol/index.ts";

// A plain lookup, not ModeName.safeParse: the page keeps zod out of its first load (issue 15).
const isModeName = (name: string): name is ModeName =>
  (MODE_NAMES as readonly string[]).includes(name);

import type { ComposerInput } from "./parseComposerInput.ts";

export interface CommandTarget {
  prompt(sessionId: string, text: string): boolean;
  setMode(sessionId: string, mode: ModeName): boolean;
}

/** Copy keys of the common namespace, with their values, for what went wrong. */
export type ComposerProblem =
  | { key: "composer.unknownCommand"; vars: { name: string } }
  | { key: "composer.unknownMode"; vars: { name: string } }
  | { key: "composer.missingMode"; vars?: undefined }
  | { key: "composer.notSent"; vars?: undefined };

/** `sent` false means the text should stay in the box. */
export type ComposerOutcome = { sent: true } | { sent: false; problem?: ComposerProblem };

type Command = (arg: string, sessionId: string, target: CommandTarget) => ComposerOutcome;

const sentOrKept = (sent: boolean): ComposerOutcome =>
  sent ? { sent: true } : { sent: false, problem: { key: "composer.notSent" } };

const COMMANDS: Record<string, Command> = {
  mode(arg, sessionId, target) {
    const name = arg.split(/\s+/)[0]?.toLowerCase() ?? "";
    if (name === "") return { sent: false, problem: { key: "composer.missingMode" } };
    if (!isModeName(name)) {
      return { sent: false, problem: { key: "composer.unknownMode", vars: { name } } };
    }
    return sentOrKept(target.setMode(sessionId, name));
  },
  /** P2: enter plan first, so the task is already read under the plan rules. */
  plan(arg, sessionId, target) {
    if (!target.setMode(sessionId, "plan")) return sentOrKept(false);
    if (arg !== "") return sentOrKept(target.prompt(sessionId, arg));
    return { sent: true };
  },
};

export function runComposerInput(
  input: ComposerInput,
  sessionId: string,
  target: CommandTarget,
): ComposerOutcome {
  if (input.type === "prompt") {
    if (input.text === "") return { sent: false };
    return sentOrKept(target.prompt(sessionId, input.text));
  }
  const command = COMMANDS[input.name];
  if (!command) {
    return { sent: false, problem: { key: "composer.unknownCommand", vars: { name: input.name } } };
  }
  return command(input.arg, sessionId, target);
}
