import type {
  AnsweredBy,
  AskUserQuestionItem,
  InboxItem,
  PermissionDecision,
  QuestionAnswers,
  QuestionDraft,
  ReceiptCode,
  SessionEntry,
  Settings,
  StoredEntry,
} from "../../protocol/index.ts";
import type { Clock } from "../clock.ts";
import type { AskOutcome } from "../tools/contract.ts";
import type { QuestionAsker } from "./outcomes.ts";
import type { QuestionAsk } from "./questionService.ts";

export type Receipt = { ok: true } | { ok: false; code: ReceiptCode; message: string };

export type PermissionOutcome =
  | { type: "decided"; decision: PermissionDecision }
  | { type: "aborted"; reason: string };

/**
 * What the session runtime and the WebSocket router need from the interaction registry:
 * the per-session FIFO queue of questions and approvals, their countdowns and their
 * single resolution (Q7, A1–A7, R3). The registry persists every change through the
 * session log it is given, and rebuilds itself from stored entries after a restart.
 */
export interface InteractionPort {
  /**
   * A call asks once: asking again for a call whose card is still pending waits on that card.
   * An asker is never left waiting on a stopped turn: the promise settles as `signal` aborts
   * (after close too, then without a write) and on hand-over; askers watch nothing else.
   */
  askQuestions(sessionId: string, request: QuestionAsk, signal: AbortSignal): Promise<AskOutcome>;
  /**
   * As askQuestions, told to `asker` instead of a promise; throws when the questions are
   * invalid or the log refused them, and then nothing is kept.
   */
  askQuestionsFor(
    sessionId: string,
    request: QuestionAsk,
    signal: AbortSignal,
    asker: QuestionAsker,
  ): void;
  askPermission(
    sessionId: string,
    request: { toolName: string; toolCallId: string; summary: string; input: unknown },
    signal: AbortSignal,
  ): Promise<PermissionOutcome>;
  /** `by` (U4) names the device the answer came from; it is kept on the outcome. */
  answer(interactionId: string, answers: QuestionAnswers, by?: AnsweredBy): Receipt;
  cancel(interactionId: string, by?: AnsweredBy): Receipt;
  decide(interactionId: string, decision: PermissionDecision, by?: AnsweredBy): Receipt;
  /** A4: a valid user operation on the question; pauses its countdown for good. */
  touch(interactionId: string): Receipt;
  /** X3: stores work in progress; it is never an answer. */
  saveDraft(interactionId: string, draft: QuestionDraft): Receipt;
  /** A5: settings changed; turning auto-continue off pauses counting questions. */
  settingsChanged(settings: Settings): void;
  /**
   * A7: rebuild pending interactions of a session from its log after a restart. S2: with
   * `elsewhere`, the session's turn runs on another server, which owns its interactions.
   */
  restore(
    sessionId: string,
    entries: readonly StoredEntry[],
    options?: { elsewhere?: boolean },
  ): void;
  /** S2: an entry another server committed: its interactions change here as they did there. */
  observe(sessionId: string, stored: StoredEntry): void;
  /** S2: this server takes over the session's turn; its interactions are now this server's. */
  takeOver(sessionId: string, entries: readonly StoredEntry[]): void;
  pendingCount(sessionId: string): number;
  /** Abort every pending interaction of a session (turn cancelled, Q8). */
  abortSession(sessionId: string, reason: string): void;
  /**
   * S2: the session's turn now runs on another server: its questions stay pending, watched as
   * that server's (no countdown, no abort written here).
   */
  handOver?(sessionId: string): void;
  close(): void;
}

/**
 * Q7: one pending interaction as the registry holds it, for snapshots and hints: the inbox's item
 * itself (its countdown is `ineligible` also while it waits behind the head, not yet timed).
 */
export type PendingInteractionView = InboxItem;

/**
 * X2: an accepted late answer. The caller records it as a synthetic user message carrying
 * `text` and lets the agent continue; the registry only guarantees it is accepted once.
 */
export type LateAnswerReceipt =
  | {
      ok: true;
      sessionId: string;
      toolCallId: string;
      questions: AskUserQuestionItem[];
      answers: QuestionAnswers;
      text: string;
    }
  | { ok: false; code: ReceiptCode; message: string };

/** What `createInteractionRegistry` returns: the port plus read-outs for the router. */
export interface InteractionRegistry extends InteractionPort {
  /** Pending interactions of a session, head first (Q7). */
  pending(sessionId: string): PendingInteractionView[];
  /** One pending interaction, or undefined once it is resolved (or was never asked). */
  pendingOne(interactionId: string): PendingInteractionView | undefined;
  /**
   * X2: accept an answer to a question that continued automatically (A3). Rejected when the
   * question is unknown, still pending, was not auto-resolved, or already got its late answer.
   */
  acceptLateAnswer(interactionId: string, answers: QuestionAnswers): LateAnswerReceipt;
  /** X2: the accepted late answer could not be recorded, so the user may give it again. */
  releaseLateAnswer(interactionId: string): void;
}

/**
 * Built by `createInteractionRegistry(deps)` in `./registry.ts`.
 *
 * After a restart the session runtime re-runs a tool call that had no result: one whose card
 * was resolved runs from the logged resolution without asking (A7, Q5); one whose card is
 * still pending asks again and waits on that same card.
 */
export interface InteractionRegistryDeps {
  /** Persists the entry (throws on storage failure), then broadcasts it. */
  append(sessionId: string, entry: SessionEntry): StoredEntry;
  clock: Clock;
  settings(): Settings;
  timings: { graceMs: number; deadlineMs: number };
  newId(): string;
  /**
   * S2: the lease on a deadline's firing; only the server that gets it resolves by timeout.
   * Absent (SQLite, one server): every deadline is this server's to fire.
   */
  takeDeadline?(interactionId: string): boolean;
  /**
   * The appends `work` makes commit as one and are broadcast after the commit; throws when the
   * commit fails, and then none of them is written. Absent: each append commits on its own.
   */
  batch?(work: () => void): void;
}
