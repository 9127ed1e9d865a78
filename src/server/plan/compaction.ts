import type { ModelMessage } from "../models/provider.ts";
import type { PlanFileExcerpt } from "./planFile.ts";
import { planFileReferenceText, RUNTIME_NOTE_OPEN, runtimeNote } from "./planTexts.ts";

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
  if (sizeOf(messages) <= options.maxChars) return { messages: [...messages], compacted: 0 };
  const cut = cutIndex(messages, options.maxChars / 2);
  if (cut <= 0) return { messages: [...messages], compacted: 0 };

  const summary: ModelMessage = { role: "user", content: summarize(messages.slice(0, cut)) };
  const plan = await options.planFile?.();
  const reference: ModelMessage[] = plan
    ? [{ role: "user", content: planFileReferenceText(plan.path, plan.text, plan.truncated) }]
    : [];
  return { messages: [summary, ...reference, ...messages.slice(cut)], compacted: cut };
}

function messageSize(message: ModelMessage): number {
  if (message.role !== "assistant") return message.content.length;
  return (
    message.content.length +
    message.toolCalls.reduce((sum, call) => sum + (JSON.stringify(call.input) ?? "").length, 0)
  );
}

function sizeOf(messages: readonly ModelMessage[]): number {
  return messages.reduce((sum, message) => sum + messageSize(message), 0);
}

const isRealUser = (message: ModelMessage) =>
  message.role === "user" && !message.content.startsWith(RUNTIME_NOTE_OPEN);

/** The earliest user message whose tail fits the budget; the latest one when none does. */
function cutIndex(messages: readonly ModelMessage[], keepChars: number): number {
  let tail = 0;
  let cut = -1;
  for (let index = messages.length - 1; index >= 0; index--) {
    tail += messageSize(messages[index]!);
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

function summarize(removed: readonly ModelMessage[]): string {
  const asked = removed.filter(isRealUser).map((message) => `- ${preview(message.content)}`);
  const toolCounts = new Map<string, number>();
  for (const message of removed) {
    if (message.role !== "assistant") continue;
    for (const call of message.toolCalls) {
      toolCounts.set(call.name, (toolCounts.get(call.name) ?? 0) + 1);
    }
  }
  const tools = [...toolCounts].map(([name, count]) => `${name} ×${count}`).join(", ");
  return runtimeNote(
    [
      `The start of this conversation (${removed.length} messages) was compacted to save space; its details are gone.`,
      asked.length > 0 ? `In that part the user wrote:\n${asked.join("\n")}` : "",
      tools ? `Tools used in that part: ${tools}.` : "",
      "If you need something from that part again, look it up with your tools.",
    ]
      .filter((line) => line !== "")
      .join("\n\n"),
  );
}
