import type { ModelMessage } from "../provider.ts";
import type { FoundCondition, ScriptedStep } from "./scenario.ts";

/** The paths the latest successful Glob listed: what the script may read and speak of. */
export function latestFound(messages: readonly ModelMessage[]): Set<string> {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === "tool" && message.name === "Glob" && !message.isError) {
      return new Set(message.content.split("\n"));
    }
  }
  return new Set();
}

const list = (paths: string | string[] | undefined) =>
  paths === undefined ? [] : typeof paths === "string" ? [paths] : paths;

export function holds(condition: FoundCondition, found: ReadonlySet<string>): boolean {
  return (
    list(condition.ifFound).every((path) => found.has(path)) &&
    !list(condition.unlessFound).some((path) => found.has(path))
  );
}

/** The words of a step: its parts that hold, joined. */
export function sayOf(say: ScriptedStep["say"], found: ReadonlySet<string>): string {
  if (say === undefined || typeof say === "string") return say ?? "";
  return say
    .flatMap((part) => (typeof part === "string" ? [part] : holds(part, found) ? [part.text] : []))
    .join("");
}
