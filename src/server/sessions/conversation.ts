import type { SessionEntry, StoredEntry } from "../../protocol/index.ts";
import type { ModelMessage, ModelToolCall } from "../models/provider.ts";

const INTERRUPTED = "This tool call was interrupted before it produced a result.";

/** What a message weighs for compaction: its text plus its tool calls' input as JSON. */
export function messageSize(message: ModelMessage): number {
  if (message.role !== "assistant") return message.content.length;
  return message.content.length + message.toolCalls.reduce((sum, call) => sum + callSize(call), 0);
}

function callSize(call: ModelToolCall): number {
  return (JSON.stringify(call.input) ?? "").length;
}

/**
 * The model-facing conversation of a session, folded from its log one entry at a time: user
 * messages, assistant replies with the tool calls they made, and tool results right after
 * them. A user message that arrived while tool calls were still open (steering) is placed
 * after their results, and a call that never got a result before its turn ended is given one,
 * so the conversation is always well formed for any provider. Each message's size is kept as
 * it is added, so compaction never has to weigh the whole conversation again.
 */
export class ConversationFold {
  private readonly list: ModelMessage[] = [];
  private readonly sizes: number[] = [];
  private readonly open = new Map<string, string>();
  private deferred: ModelMessage[] = [];
  private total = 0;

  add(entry: SessionEntry): void {
    switch (entry.kind) {
      case "user.message":
        if (this.open.size > 0) this.deferred.push({ role: "user", content: entry.text });
        else this.push({ role: "user", content: entry.text });
        break;
      case "assistant.message":
        if (this.open.size > 0) this.closeOpenCalls();
        this.push({ role: "assistant", content: entry.text, toolCalls: [] });
        break;
      case "tool.call": {
        const call = { id: entry.callId, name: entry.name, input: entry.input };
        const lastIndex = this.list.length - 1;
        const last = this.list[lastIndex];
        if (last?.role === "assistant") {
          // A new object: a message handed out earlier never changes under its reader.
          this.list[lastIndex] = { ...last, toolCalls: [...last.toolCalls, call] };
          const size = callSize(call);
          this.sizes[lastIndex]! += size;
          this.total += size;
        } else {
          this.push({ role: "assistant", content: "", toolCalls: [call] });
        }
        this.open.set(entry.callId, entry.name);
        break;
      }
      case "tool.result":
        if (!this.open.delete(entry.callId)) break;
        this.push({
          role: "tool",
          toolCallId: entry.callId,
          name: entry.name,
          content: entry.output,
          isError: entry.isError,
        });
        if (this.open.size === 0) this.flushDeferred();
        break;
      case "turn.ended":
        this.closeOpenCalls();
        break;
      default:
        break;
    }
  }

  /** How many leading messages are final: only the last one can still gain tool calls. */
  settledCount(): number {
    return Math.max(0, this.list.length - 1);
  }

  /**
   * The conversation as it stands, steering messages still waiting for results included.
   * Read it before the next entry is added: the list grows in place (its messages never change).
   */
  messages(): readonly ModelMessage[] {
    return this.deferred.length === 0 ? this.list : this.list.concat(this.deferred);
  }

  /** Sizes of `messages()`, index by index, and their sum. */
  weights(): { sizes: readonly number[]; total: number } {
    if (this.deferred.length === 0) return { sizes: this.sizes, total: this.total };
    const extra = this.deferred.map(messageSize);
    return {
      sizes: this.sizes.concat(extra),
      total: extra.reduce((sum, size) => sum + size, this.total),
    };
  }

  private push(message: ModelMessage): void {
    const size = messageSize(message);
    this.list.push(message);
    this.sizes.push(size);
    this.total += size;
  }

  private flushDeferred(): void {
    for (const message of this.deferred) this.push(message);
    this.deferred = [];
  }

  private closeOpenCalls(): void {
    for (const [callId, name] of this.open) {
      this.push({ role: "tool", toolCallId: callId, name, content: INTERRUPTED, isError: true });
    }
    this.open.clear();
    this.flushDeferred();
  }
}

export function toModelMessages(entries: readonly StoredEntry[]): ModelMessage[] {
  const fold = new ConversationFold();
  for (const { entry } of entries) fold.add(entry);
  return [...fold.messages()];
}

export interface DanglingCall {
  callId: string;
  name: string;
  input: unknown;
}

/** A call without a result, by id and tool: what a cancelled turn records as skipped (Q8). */
export type OpenCall = Pick<DanglingCall, "callId" | "name">;

type ToolCallEntry = Extract<SessionEntry, { kind: "tool.call" }>;

/**
 * Tool calls of the open turn that have no result yet, folded entry by entry; `keep` says what
 * of each call is held. A session kept in memory holds only its tool (issue 15: the input of
 * a waiting call is one more copy of its question); a restart re-runs calls with inputs.
 */
export class OpenCalls<Kept> {
  private readonly calls = new Map<string, Kept>();

  constructor(private readonly keep: (call: ToolCallEntry) => Kept) {}

  add(entry: SessionEntry): void {
    if (entry.kind === "turn.started" || entry.kind === "turn.ended") this.calls.clear();
    if (entry.kind === "tool.call") this.calls.set(entry.callId, this.keep(entry));
    if (entry.kind === "tool.result") this.calls.delete(entry.callId);
  }

  list(): Kept[] {
    return [...this.calls.values()];
  }

  /** What is kept of each call, by call id. */
  byId(): [string, Kept][] {
    return [...this.calls];
  }
}

/** Tool calls of the open turn that have no result yet: after a restart they run again. */
export function danglingCalls(entries: readonly StoredEntry[]): DanglingCall[] {
  const calls = new OpenCalls<DanglingCall>(({ callId, name, input }) => ({ callId, name, input }));
  for (const { entry } of entries) calls.add(entry);
  return calls.list();
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
