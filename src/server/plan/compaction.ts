import type { ModelMessage } from "../models/provider.ts";
import { messageSize } from "../sessions/conversation.ts";
import type { PlanFileExcerpt } from "./planFile.ts";
import { planFileReferenceText, RUNTIME_NOTE_OPEN, trimmedRuntimeNote } from "./planTexts.ts";

/** Conversations longer than this many characters are compacted before they are sent. */
export const DEFAULT_COMPACT_ABOVE_CHARS = 400_000;

const ASKED_PREVIEW_CHARS = 300;

export interface CompactionOptions {
  /** Compact when the conversation is longer than this (characters of text and tool input). */
  maxChars: number;
  /** P11: the session's plan file, read only when a compaction happens. */
  planFile?: () => Promise<PlanFileExcerpt | undefined>;
}

export interface CompactionResult {
  messages: ModelMessage[];
  /** How many of the oldest messages were replaced by the summary; 0 when nothing changed. */
  compacted: number;
}

/** A conversation with each message's size, as the session's projection keeps it. */
export interface WeighedConversation {
  messages: readonly ModelMessage[];
  sizes: readonly number[];
  total: number;
  /** How many leading messages can no longer change; their summary part is kept (see below). */
  settled?: number;
  /** V5: everything before this index is compacted whatever the size ("fresh context"). */
  freshCut?: number;
}

/**
 * A deterministic, model-free compaction: when the conversation is too long, its oldest part
 * is replaced by one summary message that lists what the user asked and which tools ran, and
 * the session's plan file, if it has one, is put back right after it (P11). The kept part
 * starts at a user message, so no tool call is separated from its result, and it keeps at
 * least the latest user message and everything after it.
 */
export async function compactConversation(
  messages: readonly ModelMessage[],
  options: CompactionOptions,
): Promise<CompactionResult> {
  const sizes = messages.map(messageSize);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  return compactWeighed({ messages, sizes, total }, options, new CompactionSummaries());
}

/**
 * The same compaction over sizes known in advance; `summaries` carries the summary of the
 * settled part from one call to the next, so a long session's cost does not grow with it.
 */
export async function compactWeighed(
  conversation: WeighedConversation,
  options: CompactionOptions,
  summaries: CompactionSummaries,
): Promise<CompactionResult> {
  const { messages, sizes, total } = conversation;
  const freshCut = conversation.freshCut ?? 0;
  if (total <= options.maxChars && freshCut <= 0) return { messages: [...messages], compacted: 0 };
  const sizeCut = total <= options.maxChars ? 0 : cutIndex(messages, sizes, options.maxChars / 2);
  const cut = Math.max(sizeCut, freshCut);
  if (cut <= 0) return { messages: [...messages], compacted: 0 };

  const summaryText = summaries.summaryOf(messages, cut, conversation.settled ?? 0);
  const summary: ModelMessage = { role: "user", content: summaryText };
  // Before the await: the projection's list may grow meanwhile.
  const kept = messages.slice(cut);
  const plan = await options.planFile?.();
  const reference: ModelMessage[] = plan
    ? [{ role: "user", content: planFileReferenceText(plan.path, plan.text, plan.truncated) }]
    : [];
  return { messages: [summary, ...reference, ...kept], compacted: cut };
}

const isRealUser = (message: ModelMessage) =>
  message.role === "user" && !message.content.startsWith(RUNTIME_NOTE_OPEN);

/** The earliest user message whose tail fits the budget; the latest one when none does. */
function cutIndex(
  messages: readonly ModelMessage[],
  sizes: readonly number[],
  keepChars: number,
): number {
  let tail = 0;
  let cut = -1;
  for (let index = messages.length - 1; index >= 0; index--) {
    tail += sizes[index]!;
    if (messages[index]!.role !== "user") continue;
    if (cut === -1 || tail <= keepChars) cut = index;
    if (tail > keepChars) break;
  }
  return cut;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > ASKED_PREVIEW_CHARS ? `${flat.slice(0, ASKED_PREVIEW_CHARS - 1)}…` : flat;
}

/** What the summary says about a stretch of messages: what the user asked, which tools ran. */
class SummaryParts {
  /** One `- preview` line per real user message, joined as they come, never re-joined. */
  private askedText = "";
  private pending: string[] = [];
  readonly toolCounts = new Map<string, number>();

  absorb(message: ModelMessage): void {
    if (isRealUser(message)) this.pending.push(`- ${preview(message.content)}`);
    if (message.role !== "assistant") return;
    for (const call of message.toolCalls) {
      this.toolCounts.set(call.name, (this.toolCounts.get(call.name) ?? 0) + 1);
    }
  }

  asked(): string {
    if (this.pending.length > 0) {
      const added = this.pending.join("\n");
      this.askedText = this.askedText === "" ? added : `${this.askedText}\n${added}`;
      this.pending = [];
    }
    return this.askedText;
  }

  copy(): SummaryParts {
    const copy = new SummaryParts();
    copy.askedText = this.asked();
    for (const [name, count] of this.toolCounts) copy.toolCounts.set(name, count);
    return copy;
  }
}

/**
 * Summaries of a conversation's oldest part. The cut only moves forward as a conversation
 * grows, so what the settled messages before it contribute is kept and extended, not redone.
 */
export class CompactionSummaries {
  private kept = new SummaryParts();
  private keptUpTo = 0;

  summaryOf(messages: readonly ModelMessage[], cut: number, settled: number): string {
    const stable = Math.min(cut, settled);
    if (stable < this.keptUpTo) {
      this.kept = new SummaryParts();
      this.keptUpTo = 0;
    }
    for (; this.keptUpTo < stable; this.keptUpTo++) this.kept.absorb(messages[this.keptUpTo]!);
    let parts = this.kept;
    if (stable < cut) {
      parts = this.kept.copy();
      for (let index = stable; index < cut; index++) parts.absorb(messages[index]!);
    }
    return summarize(cut, parts);
  }
}

function summarize(removedCount: number, parts: SummaryParts): string {
  const tools = [...parts.toolCounts].map(([name, count]) => `${name} ×${count}`).join(", ");
  const asked = parts.asked();
  // Concatenated, not joined: the user's lines grow with the session and are not copied here.
  let body = `The start of this conversation (${removedCount} messages) was compacted to save space; its details are gone.`;
  if (asked !== "") body += `\n\nIn that part the user wrote:\n${asked}`;
  if (tools) body += `\n\nTools used in that part: ${tools}.`;
  body += "\n\nIf you need something from that part again, look it up with your tools.";
  // Every part starts and ends with a word, and the user's lines are trimmed previews.
  return trimmedRuntimeNote(body);
}
