import type { StoredEntry } from "../../protocol/index.ts";
import type { ModelMessage } from "../models/provider.ts";

const INTERRUPTED = "This tool call was interrupted before it produced a result.";

/**
 * The model-facing conversation of a session, folded from its log: user messages, assistant
 * replies with the tool calls they made, and tool results right after them. A user message
 * that arrived while tool calls were still open (steering) is placed after their results, and
 * a call that never got a result before its turn ended is given one, so the conversation is
 * always well formed for any provider.
 */
export function toModelMessages(entries: readonly StoredEntry[]): ModelMessage[] {
  const messages: ModelMessage[] = [];
  const open = new Map<string, string>();
  let deferred: ModelMessage[] = [];

  const flushDeferred = () => {
    messages.push(...deferred);
    deferred = [];
  };
  const closeOpenCalls = () => {
    for (const [callId, name] of open) {
      messages.push({
        role: "tool",
        toolCallId: callId,
        name,
        content: INTERRUPTED,
        isError: true,
      });
    }
    open.clear();
    flushDeferred();
  };

  for (const { entry } of entries) {
    switch (entry.kind) {
      case "user.message":
        if (open.size > 0) deferred.push({ role: "user", content: entry.text });
        else messages.push({ role: "user", content: entry.text });
        break;
      case "assistant.message":
        if (open.size > 0) closeOpenCalls();
        messages.push({ role: "assistant", content: entry.text, toolCalls: [] });
        break;
      case "tool.call": {
        const last = messages[messages.length - 1];
        const call = { id: entry.callId, name: entry.name, input: entry.input };
        if (last?.role === "assistant") last.toolCalls.push(call);
        else messages.push({ role: "assistant", content: "", toolCalls: [call] });
        open.set(entry.callId, entry.name);
        break;
      }
      case "tool.result":
        if (!open.delete(entry.callId)) break;
        messages.push({
          role: "tool",
          toolCallId: entry.callId,
          name: entry.name,
          content: entry.output,
          isError: entry.isError,
        });
        if (open.size === 0) flushDeferred();
        break;
      case "turn.ended":
        closeOpenCalls();
        break;
      default:
        break;
    }
  }
  messages.push(...deferred);
  return messages;
}

/** Tool calls of the open turn that have no result yet: after a restart they run again. */
export function danglingCalls(
  entries: readonly StoredEntry[],
): Array<{ callId: string; name: string; input: unknown }> {
  const calls = new Map<string, { callId: string; name: string; input: unknown }>();
  for (const { entry } of entries) {
    if (entry.kind === "turn.started" || entry.kind === "turn.ended") calls.clear();
    if (entry.kind === "tool.call") {
      calls.set(entry.callId, { callId: entry.callId, name: entry.name, input: entry.input });
    }
    if (entry.kind === "tool.result") calls.delete(entry.callId);
  }
  return [...calls.values()];
}

/** Whether the log ends inside a turn: `turn.started` without its `turn.ended`. */
export function hasOpenTurn(entries: readonly StoredEntry[]): boolean {
  for (let index = entries.length - 1; index >= 0; index--) {
    const kind = entries[index]!.entry.kind;
    if (kind === "turn.ended") return false;
    if (kind === "turn.started") return true;
  }
  return false;
}
