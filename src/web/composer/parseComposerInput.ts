export type ComposerInput =
  | { type: "prompt"; text: string }
  | { type: "command"; name: string; arg: string };

const COMMAND = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/;

/**
 * `/name rest` is a command; anything else is a prompt. A leading path such as
 * `/etc/hosts …` is not a command because a command name ends at whitespace.
 */
export function parseComposerInput(text: string): ComposerInput {
  const trimmed = text.trim();
  const match = COMMAND.exec(trimmed);
  if (!match?.[1]) return { type: "prompt", text: trimmed };
  return { type: "command", name: match[1].toLowerCase(), arg: (match[2] ?? "").trim() };
}
