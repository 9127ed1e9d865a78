import type { SessionEntry } from "../../protocol/index.ts";
import type { SessionLog } from "../store/sessionLog.ts";

/** B7: what of an entry the agent is told: a message the user typed, or a late answer. */
export function heardOf(entry: SessionEntry): string | undefined {
  return entry.kind === "user.message" && (!entry.synthetic || entry.lateAnswerFor !== undefined)
    ? entry.text
    : undefined;
}

/** B7: the text added to a result for what the user wrote; empty when nothing is new. */
export function heardText(texts: readonly string[]): string {
  if (texts.length === 0) return "";
  return `\n\nThe user also wrote to you in plangate:\n\n${texts.map((text) => `> ${text.replaceAll("\n", "\n> ")}`).join("\n\n")}`;
}

/**
 * B7/X2: what the user wrote to an MCP agent that it has not heard yet: messages typed into its
 * session and late answers to questions that continued automatically. The agent hears them
 * with its next tool result, since an MCP server cannot speak to an agent between calls.
 */
export class AgentInbox {
  /** Per plangate session: the user's messages up to this seq have reached the agent. */
  private readonly heardSeq = new Map<string, number>();

  constructor(private readonly log: SessionLog) {}

  /** A new session: nothing in it is news to the agent. */
  startAt(sessionId: string, seq: number): void {
    this.heardSeq.set(sessionId, seq);
  }

  /** Before a call: after a restart, the agent last heard from plangate with its last result. */
  open(sessionId: string): void {
    if (this.heardSeq.has(sessionId)) return;
    const lastResult = this.log.latestOfKind(sessionId, "tool.result", Number.MAX_SAFE_INTEGER);
    this.heardSeq.set(sessionId, lastResult?.seq ?? 0);
  }

  /**
   * The text to add to the result the agent gets now; empty when nothing is new. Only user
   * messages are read: a burst's first result would otherwise parse every question and call
   * its session logged since the last one (issue 15).
   */
  take(sessionId: string): string {
    const since = this.heardSeq.get(sessionId) ?? 0;
    const messages = this.log.entriesOfKindAfter(sessionId, "user.message", since);
    this.heardSeq.set(sessionId, messages.at(-1)?.seq ?? since);
    return heardText(messages.flatMap(({ entry }) => heardOf(entry) ?? []));
  }
}
