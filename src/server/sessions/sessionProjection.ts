import {
  type ExecutionMode,
  isDrivenOverMcp,
  type PlanRevision,
  type StoredEntry,
} from "../../protocol/index.ts";
import { CompactionSummaries, type WeighedConversation } from "../plan/compaction.ts";
import { PlanRevisions } from "../plan/planRevisions.ts";
import { type ModeReminder, PlanHistory } from "../plan/reminders.ts";
import type { SessionLog } from "../store/sessionLog.ts";
import { AssistantMessageCounter, type AssistantMessageCounts } from "../todos/reminder.ts";
import { CallSteps, type LoggedStep } from "./callSteps.ts";
import { ConversationFold, type OpenCall, OpenCalls } from "./conversation.ts";

/**
 * What the turn loop needs to know about one session, folded from its log one entry at a
 * time: the model's conversation with each message's size, the calls still without a
 * result and their resolved permission steps (A7), whether a turn is open, the plan revisions
 * (X4), and the counters the plan (P6) and todo (T5) reminders read. Built once from the log when the session is loaded and then kept up to date, so a
 * turn's cost does not grow with the session's length.
 */
export class SessionProjection {
  private lastSeq = 0;
  private lastUserMessageSeq = 0;
  private turnOpen = false;
  /** V5: index of the message that approved a plan "with a fresh context"; 0 when none did. */
  private freshCut = 0;
  private readonly conversation = new ConversationFold();
  /** Each call's tool by its id: an object per call was one more per waiting call (issue 15). */
  private readonly dangling = new OpenCalls((call) => call.name);
  private readonly planHistory = new PlanHistory();
  private readonly planRevisions = new PlanRevisions();
  private readonly callSteps = new CallSteps();
  private readonly assistantMessages = new AssistantMessageCounter();
  /** Every call id the model has used here: a reused one is renamed (see `unusedCallId`). */
  private readonly callIds = new Set<string>();
  /** Kept with the conversation so the compaction summary grows with it, not from scratch. */
  readonly summaries = new CompactionSummaries();

  /**
   * X1: an agent over MCP keeps its own conversation; its session's projection folds none,
   * so each of its calls (input and result) is not held in memory for the session's life.
   */
  constructor(readonly conversational = true) {}

  static fromEntries(entries: readonly StoredEntry[], conversational = true): SessionProjection {
    const projection = new SessionProjection(conversational);
    for (const stored of entries) projection.add(stored);
    return projection;
  }

  /** Entries arrive in seq order; one already folded (seen while loading) is ignored. */
  add({ seq, entry }: StoredEntry): void {
    if (seq <= this.lastSeq) return;
    this.lastSeq = seq;
    if (entry.kind === "user.message") this.lastUserMessageSeq = seq;
    if (entry.kind === "turn.started") this.turnOpen = true;
    if (entry.kind === "turn.ended") this.turnOpen = false;
    // The approving call's message is the last one; the conversation restarts from it.
    if (this.conversational) {
      if (entry.kind === "plan.approved" && entry.fresh)
        this.freshCut = this.conversation.settledCount();
      this.conversation.add(entry);
      if (entry.kind === "tool.call") this.callIds.add(entry.callId);
    }
    this.dangling.add(entry);
    this.planHistory.add(entry);
    this.planRevisions.add(entry);
    this.callSteps.add(entry);
    this.assistantMessages.add(entry);
  }

  /** The seq of the last entry folded in. */
  seq(): number {
    return this.lastSeq;
  }

  userSpokeSince(seq: number): boolean {
    return this.lastUserMessageSeq > seq;
  }

  hasOpenTurn(): boolean {
    return this.turnOpen;
  }

  /** Q8: the open turn's calls without a result, by id and tool (not their inputs). */
  danglingCalls(): OpenCall[] {
    return this.dangling.byId().map(([callId, name]) => ({ callId, name }));
  }

  /**
   * The model's call id, or a variant of it no call of this session has used (nor any in
   * `taken`). A model that repeats an id, in one reply or across turns, would otherwise have
   * its results paired with the wrong calls, on the page and in the next request (which the
   * providers refuse).
   */
  unusedCallId(id: string, taken: ReadonlySet<string>): string {
    const used = (candidate: string) => this.callIds.has(candidate) || taken.has(candidate);
    if (!used(id)) return id;
    let n = 2;
    while (used(`${id}_${n}`)) n++;
    return `${id}_${n}`;
  }

  /** A7: how the call's permission step was resolved, while it has no result. */
  stepOf(callId: string): LoggedStep | undefined {
    return this.callSteps.of(callId);
  }

  /** X4: the revision a plan review asked by this call is. */
  planRevision(toolCallId: string): PlanRevision {
    return this.planRevisions.for(toolCallId);
  }

  /** P6: the plan reminder the next model request needs in `mode`, if any. */
  modeReminder(mode: ExecutionMode): ModeReminder | undefined {
    return this.planHistory.reminderFor(mode);
  }

  /** T5: assistant messages since the last TodoWrite and since the last todo reminder. */
  assistantMessageCounts(): AssistantMessageCounts {
    return this.assistantMessages.current();
  }

  /** The model-facing conversation as it stands, with the sizes compaction weighs. */
  weighedConversation(): WeighedConversation {
    return {
      messages: this.conversation.messages(),
      ...this.conversation.weights(),
      settled: this.conversation.settledCount(),
      ...(this.freshCut > 0 ? { freshCut: this.freshCut } : {}),
    };
  }
}

/**
 * The projections of the sessions loaded so far, kept current by listening to the log: every
 * entry, whoever appends it (turn loop, interaction registry, MCP bridge), is folded in once
 * it is committed.
 */
export class SessionProjections {
  private readonly bySession = new Map<string, SessionProjection>();
  private readonly unsubscribe: () => void;

  constructor(private readonly log: SessionLog) {
    this.unsubscribe = log.subscribe((sessionId, stored) => {
      this.bySession.get(sessionId)?.add(stored);
    });
  }

  /** The session's projection, built from its log on first use. */
  get(sessionId: string): SessionProjection {
    return (
      this.bySession.get(sessionId) ?? this.load(sessionId, this.log.entriesAfter(sessionId, 0))
    );
  }

  /**
   * For a model turn: the projection with the model's conversation. A session an MCP agent
   * drove (whose projection folded none) reads it from the log once, should a model take over.
   */
  withConversation(sessionId: string): SessionProjection {
    const projection = this.get(sessionId);
    return projection.conversational
      ? projection
      : this.load(sessionId, this.log.entriesAfter(sessionId, 0), true);
  }

  /**
   * Builds the projection from entries the caller has just read from the log. An MCP agent's
   * session folds no conversation unless asked: no model reads it, and it can be long.
   */
  load(
    sessionId: string,
    entries: readonly StoredEntry[],
    conversational = !isDrivenOverMcp(this.log.getSession(sessionId)?.model ?? ""),
  ): SessionProjection {
    const projection = SessionProjection.fromEntries(entries, conversational);
    this.bySession.set(sessionId, projection);
    return projection;
  }

  dispose(): void {
    this.unsubscribe();
  }
}
