import type {
  AnsweredBy,
  CountdownState,
  InteractionOutcome,
  InteractionRequest,
  PermissionDecision,
  QuestionAnswers,
  QuestionDraft,
  ReceiptCode,
  Settings,
  StoredEntry,
} from "../../protocol/index.ts";
import { AlreadyResolvedError } from "../store/errors.ts";
import type { AskOutcome } from "../tools/contract.ts";
import { checkAnswers } from "./answerCheck.ts";
import { Countdowns } from "./countdown.ts";
import { LateAnswers } from "./lateAnswers.ts";
import {
  abortReason,
  hasAsker,
  newPending,
  OK,
  type Pending,
  type QuestionAsker,
  rejected,
  SettledMemory,
  settle,
  settledCode,
  storageFailed,
  toAskOutcome,
  toPermissionOutcome,
} from "./outcomes.ts";
import { supersededApprovalProblem } from "./planReviewCheck.ts";
import type {
  InteractionRegistry,
  InteractionRegistryDeps,
  LateAnswerReceipt,
  PendingInteractionView,
  PermissionOutcome,
  Receipt,
} from "./port.ts";
import { type QuestionAsk, UserQuestionService } from "./questionService.ts";
import { SessionQueues } from "./queue.ts";
import { readInteractions } from "./restore.ts";

export { isAutoContinueEligible } from "./countdown.ts";

/** How many settled interactions keep their exact receipt code (R3); older ones are unknown. */
const SETTLED_MEMORY = 50_000;

/**
 * The view of a question not timed yet: one object, so a reader comparing views (the inbox
 * feed, per change, for every item of the session) finds it unchanged by reference.
 */
const NOT_TIMED: CountdownState = Object.freeze({ phase: "ineligible" });

/** A resolution written inside `resolveTogether`, heard once its transaction commits. */
interface Written {
  interactionId: string;
  pending: Pending;
  outcome: InteractionOutcome;
  activateNext: boolean;
}

/** Written here, refused by the log, or already resolved by another server (S2). */
type Resolution = boolean | "elsewhere";

function receiptOf(resolution: Resolution): Receipt {
  if (resolution === "elsewhere") {
    return rejected("ALREADY_ANSWERED", "this interaction is already resolved");
  }
  return resolution ? OK : storageFailed();
}

/**
 * The interaction registry: owns the pending interactions and their single resolution (R3),
 * and composes the per-session queue (Q7), the countdowns (A1–A6), the late answers (X2) and
 * the rebuild from the log (A7). Every map here loses its entry when the interaction ends.
 */
class Registry implements InteractionRegistry {
  private readonly pendingById = new Map<string, Pending>();
  private readonly queues = new SessionQueues();
  private nextArrival = 0;
  private readonly settled = new SettledMemory<ReceiptCode>(SETTLED_MEMORY);
  private readonly lateAnswers = new LateAnswers();
  private readonly countdowns: Countdowns;
  private readonly questions: UserQuestionService;
  /**
   * Q8: the one abort listener of every signal a question waits under, not a closure per
   * signal (issue 15); a signal ignores it added twice, so each hears it once.
   */
  private readonly onAbort = { handleEvent: () => this.abortAllAborted() };
  /** Inside `resolveTogether`: resolutions written but not committed yet. */
  private uncommitted: Written[] | undefined;
  private closed = false;

  constructor(private readonly deps: InteractionRegistryDeps) {
    this.countdowns = new Countdowns(deps, {
      pendingById: (interactionId) => this.pendingById.get(interactionId),
      resolve: (interactionId, pending, outcome, activateNext) =>
        this.resolve(interactionId, pending, outcome, activateNext),
      together: (fire) => this.resolveTogether(fire),
    });
    this.questions = new UserQuestionService((sessionId, request, signal, asker) =>
      this.enqueueQuestions(sessionId, request, signal, asker),
    );
  }

  askQuestions(sessionId: string, request: QuestionAsk, signal: AbortSignal): Promise<AskOutcome> {
    return new Promise<AskOutcome>((resolve) => {
      this.askQuestionsFor(sessionId, request, signal, { heard: resolve });
    });
  }

  askQuestionsFor(
    sessionId: string,
    request: QuestionAsk,
    signal: AbortSignal,
    asker: QuestionAsker,
  ): void {
    this.questions.ask(sessionId, request, signal, asker);
  }

  askPermission(
    sessionId: string,
    request: { toolName: string; toolCallId: string; summary: string; input: unknown },
    signal: AbortSignal,
  ): Promise<PermissionOutcome> {
    if (signal.aborted) return Promise.resolve(toPermissionOutcome(aborted(signal)));
    return new Promise<PermissionOutcome>((resolve) => {
      this.admit(
        sessionId,
        request.toolCallId,
        "permission",
        signal,
        (pending) => {
          pending.deliverPermission = resolve;
        },
        () => ({
          kind: "permission",
          interactionId: this.deps.newId(),
          sessionId,
          toolName: request.toolName,
          toolCallId: request.toolCallId,
          summary: request.summary,
          input: request.input,
          createdAt: this.deps.clock.now(),
        }),
      );
    });
  }

  private enqueueQuestions(
    sessionId: string,
    request: QuestionAsk,
    signal: AbortSignal,
    asker: QuestionAsker,
  ): void {
    if (signal.aborted) {
      asker.heard(toAskOutcome(aborted(signal)));
      return;
    }
    const attach = (pending: Pending) => {
      pending.deliverQuestion = asker;
    };
    this.admit(sessionId, request.toolCallId, "question", signal, attach, () => ({
      kind: "question",
      interactionId: this.deps.newId(),
      sessionId,
      toolName: request.toolName,
      toolCallId: request.toolCallId,
      questions: request.questions,
      createdAt: this.deps.clock.now(),
      ...(request.planRevision ? { planRevision: request.planRevision } : {}),
    }));
  }

  /**
   * The pending interaction an asker waits on: its call's card restored from the log that no
   * one waits on yet (A7), or a new one, stored first and queued. Throws, and keeps nothing,
   * when the log refused it. The asker is attached before the head is timed: on a shared store
   * (S2), writing the countdown first hears what other servers wrote, an answer included.
   */
  private admit(
    sessionId: string,
    toolCallId: string,
    kind: InteractionRequest["kind"],
    signal: AbortSignal,
    attach: (pending: Pending) => void,
    build: () => InteractionRequest,
  ): void {
    const restored = this.waitingForItsCall(sessionId, toolCallId, kind);
    if (restored) {
      attach(restored);
      this.watch(restored, signal);
      return;
    }
    const request = build();
    this.deps.append(sessionId, { kind: "interaction.requested", request });
    const pending = newPending(request);
    attach(pending);
    const head = this.enqueue(sessionId, pending);
    this.watch(pending, signal);
    if (head) this.activateHead(sessionId);
  }

  /** Q7: the interaction waits at the tail of its session's queue; true when it is the head. */
  private enqueue(sessionId: string, pending: Pending): boolean {
    pending.arrival = this.nextArrival++;
    this.pendingById.set(pending.request.interactionId, pending);
    return this.queues.push(sessionId, pending.request.interactionId);
  }

  /** A7: only restored cards lack an asker; a session's queue is short, so it is searched. */
  private waitingForItsCall(
    sessionId: string,
    toolCallId: string,
    kind: InteractionRequest["kind"],
  ): Pending | undefined {
    for (const interactionId of this.queues.ids(sessionId)) {
      const pending = this.pendingById.get(interactionId);
      if (
        pending &&
        !hasAsker(pending) &&
        pending.request.toolCallId === toolCallId &&
        pending.request.kind === kind
      ) {
        return pending;
      }
    }
    return undefined;
  }

  private watch(pending: Pending, signal: AbortSignal): void {
    pending.signal = signal;
    signal.addEventListener("abort", this.onAbort, { once: true });
  }

  /**
   * Q8: a cancelled turn takes every interaction it is still waiting on with it. Whichever
   * signal aborted, the interactions whose signal has are the ones to abort.
   */
  private abortAllAborted(): void {
    for (const [interactionId, pending] of [...this.pendingById]) {
      const signal = pending.signal;
      if (!signal?.aborted || !this.pendingById.has(interactionId)) continue;
      if (this.closed) {
        // Nothing is written after close: the asker is released, the card stays pending (A7).
        pending.signal = undefined;
        settle(pending, aborted(signal));
      } else {
        this.abortOne(interactionId, pending, abortReason(signal), true);
      }
    }
  }

  private activateHead(sessionId: string): void {
    const headId = this.queues.head(sessionId);
    const head = headId === undefined ? undefined : this.pendingById.get(headId);
    // S2: the server running the session's turn starts its countdowns.
    if (headId !== undefined && head && !head.elsewhere) this.countdowns.activate(headId, head);
  }

  /**
   * R3: the single resolution. Writes first; on a storage failure nothing changes and the
   * caller reports it. Returns whether the interaction resolved.
   */
  private resolve(
    interactionId: string,
    pending: Pending,
    outcome: InteractionOutcome,
    activateNext = true,
  ): Resolution {
    const sessionId = pending.request.sessionId;
    try {
      this.deps.append(sessionId, { kind: "interaction.resolved", interactionId, outcome });
    } catch (error) {
      // S2: another server resolved it first; its entry reaches this one and settles it here.
      if (error instanceof AlreadyResolvedError) return "elsewhere";
      return false;
    }
    if (this.uncommitted) {
      this.uncommitted.push({ interactionId, pending, outcome, activateNext });
      return true;
    }
    this.settleHere(interactionId, pending, outcome);
    if (activateNext) this.activateHead(sessionId);
    return true;
  }

  /**
   * Deadlines due together (issue 15): their resolutions commit as one, then their askers hear
   * and the next heads start counting, again in one commit. Nobody hears of a resolution before
   * it is committed; when a commit fails, each deadline tries again on its own. False when
   * that commit failed.
   */
  private resolveTogether(fire: () => void): boolean {
    const batch = this.deps.batch;
    // Without batches, or inside one already (its commit covers these too).
    if (!batch || this.uncommitted) {
      fire();
      return true;
    }
    const written: Written[] = [];
    this.uncommitted = written;
    try {
      batch(fire);
    } catch {
      for (const { interactionId, pending } of written)
        this.countdowns.retry(interactionId, pending);
      return false;
    } finally {
      this.uncommitted = undefined;
    }
    const next = new Set<string>();
    for (const { interactionId, pending, outcome, activateNext } of written) {
      this.settleHere(interactionId, pending, outcome);
      if (activateNext) next.add(pending.request.sessionId);
    }
    // Only heads not timed yet start counting here; a head timed before keeps its countdown.
    for (const sessionId of next) {
      if (this.pendingById.get(this.queues.head(sessionId) ?? "")?.countdown !== undefined) {
        next.delete(sessionId);
      }
    }
    if (next.size === 0) return true;
    try {
      batch(() => {
        for (const sessionId of next) this.activateHead(sessionId);
      });
    } catch {
      // Those countdowns are not in the log: each head starts over on its own.
      for (const sessionId of next) {
        const head = this.pendingById.get(this.queues.head(sessionId) ?? "");
        if (!head) continue;
        this.countdowns.stop(head);
        head.countdown = undefined;
        this.activateHead(sessionId);
      }
    }
    return true;
  }

  /** After the resolution is in the log: the asker (here, or after a restart) gets the outcome. */
  private settleHere(interactionId: string, pending: Pending, outcome: InteractionOutcome): void {
    this.forget(interactionId, pending, outcome);
    // A7: when nobody waits yet, the call that re-runs after the restart reads it from the log;
    // S2: an asker on another server reads the same entry there.
    settle(pending, outcome);
  }

  private forget(interactionId: string, pending: Pending, outcome: InteractionOutcome): void {
    this.countdowns.stop(pending);
    pending.signal = undefined;
    this.pendingById.delete(interactionId);
    this.queues.remove(pending.request.sessionId, interactionId);
    this.settled.set(interactionId, settledCode(outcome));
    if (outcome.type === "answered" && outcome.auto && pending.request.kind === "question") {
      this.lateAnswers.remember(pending.request);
    }
  }

  /**
   * Q8: no user is coming. Even when the log refuses the write, the asker is released so a
   * cancelled turn can end; the interaction is dropped from memory either way.
   */
  private abortOne(
    interactionId: string,
    pending: Pending,
    reason: string,
    activateNext: boolean,
  ): void {
    const outcome: InteractionOutcome = { type: "aborted", reason };
    if (this.resolve(interactionId, pending, outcome, activateNext)) return;
    this.forget(interactionId, pending, outcome);
    settle(pending, outcome);
    if (activateNext) this.activateHead(pending.request.sessionId);
  }

  private lookup(interactionId: string): Pending | Receipt {
    const pending = this.pendingById.get(interactionId);
    if (pending) return pending;
    const code = this.settled.get(interactionId);
    if (code) return rejected(code, "this interaction is already resolved");
    return rejected("UNKNOWN_INTERACTION", "no such interaction");
  }

  answer(interactionId: string, answers: QuestionAnswers, by?: AnsweredBy): Receipt {
    const found = this.lookup(interactionId);
    if (!("request" in found)) return found;
    if (found.request.kind !== "question") {
      return rejected("WRONG_KIND", "a permission is decided, not answered");
    }
    const checked = checkAnswers(found.request.questions, answers);
    if (!checked.ok) return rejected(checked.code ?? "INVALID_ANSWER", checked.message);
    const superseded = supersededApprovalProblem(
      found.request,
      checked.answers,
      this.pendingIn(found.request.sessionId),
    );
    if (superseded) return rejected(superseded.code, superseded.message);
    const outcome: InteractionOutcome = {
      type: "answered",
      answers: checked.answers,
      auto: false,
      ...(by ? { by } : {}),
    };
    return receiptOf(this.resolve(interactionId, found, outcome));
  }

  private pendingIn(sessionId: string): InteractionRequest[] {
    return this.queues.ids(sessionId).flatMap((id) => this.pendingById.get(id)?.request ?? []);
  }

  cancel(interactionId: string, by?: AnsweredBy): Receipt {
    const found = this.lookup(interactionId);
    if (!("request" in found)) return found;
    if (found.request.kind !== "question") {
      return rejected("WRONG_KIND", "a permission is decided, not cancelled");
    }
    const outcome: InteractionOutcome = { type: "cancelled", ...(by ? { by } : {}) };
    return receiptOf(this.resolve(interactionId, found, outcome));
  }

  decide(interactionId: string, decision: PermissionDecision, by?: AnsweredBy): Receipt {
    const found = this.lookup(interactionId);
    if (!("request" in found)) return found;
    if (found.request.kind !== "permission") {
      return rejected("WRONG_KIND", "a question is answered, not decided");
    }
    const outcome: InteractionOutcome = { type: "decided", decision, ...(by ? { by } : {}) };
    return receiptOf(this.resolve(interactionId, found, outcome));
  }

  touch(interactionId: string): Receipt {
    const found = this.lookup(interactionId);
    if (!("request" in found)) return found;
    if (found.countdown?.phase !== "counting") return OK;
    return this.countdowns.pause(interactionId, found) ? OK : storageFailed();
  }

  /** X3; a draft also means the user is at work on the question, so it pauses like a touch (A4). */
  saveDraft(interactionId: string, draft: QuestionDraft): Receipt {
    const found = this.lookup(interactionId);
    if (!("request" in found)) return found;
    if (found.request.kind !== "question") {
      return rejected("WRONG_KIND", "a permission has no draft");
    }
    if (found.countdown?.phase === "counting" && !this.countdowns.pause(interactionId, found)) {
      return storageFailed();
    }
    if (found.draft && JSON.stringify(found.draft) === JSON.stringify(draft)) return OK;
    try {
      this.deps.append(found.request.sessionId, {
        kind: "interaction.draft",
        interactionId,
        draft,
      });
    } catch {
      return storageFailed();
    }
    found.draft = draft;
    return OK;
  }

  settingsChanged(settings: Settings): void {
    if (settings.autoContinue) return;
    for (const [interactionId, pending] of this.pendingById) {
      if (pending.countdown?.phase === "counting") this.countdowns.pause(interactionId, pending);
    }
  }

  abortSession(sessionId: string, reason: string): void {
    for (const interactionId of this.queues.ids(sessionId)) {
      const pending = this.pendingById.get(interactionId);
      if (pending) this.abortOne(interactionId, pending, reason, false);
    }
  }

  handOver(sessionId: string): void {
    for (const interactionId of this.queues.ids(sessionId)) {
      const pending = this.pendingById.get(interactionId);
      if (!pending) continue;
      this.countdowns.stop(pending);
      pending.signal = undefined;
      pending.elsewhere = true;
      // The turn that asked stops here, its writes refused; a turn that takes the session over
      // later asks again and is answered from the log (A7).
      settle(pending, { type: "aborted", reason: "the session's turn runs on another server now" });
    }
  }

  pendingCount(sessionId: string): number {
    return this.queues.count(sessionId);
  }

  pending(sessionId: string): PendingInteractionView[] {
    const views: PendingInteractionView[] = [];
    for (const interactionId of this.queues.ids(sessionId)) {
      const view = this.pendingOne(interactionId);
      if (view) views.push(view);
    }
    return views;
  }

  pendingOne(interactionId: string): PendingInteractionView | undefined {
    const pending = this.pendingById.get(interactionId);
    if (!pending) return undefined;
    const view: PendingInteractionView = {
      request: pending.request,
      countdown: pending.countdown ?? NOT_TIMED,
      queueOrder: pending.arrival,
    };
    if (pending.draft) view.draft = pending.draft;
    return view;
  }

  acceptLateAnswer(interactionId: string, answers: QuestionAnswers): LateAnswerReceipt {
    const accepted = this.lateAnswers.accept(interactionId, answers);
    if (accepted) return accepted;
    if (this.pendingById.has(interactionId)) {
      return { ok: false, code: "NOT_PENDING", message: "still pending: answer it instead" };
    }
    const code = this.settled.get(interactionId);
    if (code) return { ok: false, code, message: "it did not continue automatically" };
    return { ok: false, code: "UNKNOWN_INTERACTION", message: "no such interaction" };
  }

  releaseLateAnswer(interactionId: string): void {
    this.lateAnswers.release(interactionId);
  }

  /**
   * A6/A7: rebuild one session from its log. Counting heads whose deadline passed while the
   * server was down resolve now; the others get their timer back for the remaining time.
   */
  restore(
    sessionId: string,
    entries: readonly StoredEntry[],
    options: { elsewhere?: boolean } = {},
  ): void {
    const logged = readInteractions(entries);
    for (const [interactionId, outcome] of logged.outcomes) {
      const request = logged.requests.get(interactionId);
      this.settled.set(interactionId, settledCode(outcome));
      if (!request) continue;
      if (outcome.type === "answered" && outcome.auto && request.kind === "question") {
        this.lateAnswers.remember(request, logged.lateAnswered.has(interactionId));
      }
    }

    const restored: string[] = [];
    for (const interactionId of logged.order) {
      const request = logged.requests.get(interactionId);
      if (!request || logged.outcomes.has(interactionId) || this.pendingById.has(interactionId)) {
        continue;
      }
      const pending = newPending(request);
      pending.countdown = logged.countdowns.get(interactionId);
      pending.draft = logged.drafts.get(interactionId);
      pending.elsewhere = options.elsewhere === true;
      this.enqueue(sessionId, pending);
      restored.push(interactionId);
    }
    for (const interactionId of restored) {
      const pending = this.pendingById.get(interactionId);
      if (pending) this.countdowns.resume(interactionId, pending);
    }
    this.activateHead(sessionId);
  }

  observe(sessionId: string, { entry }: StoredEntry): void {
    if (this.closed) return;
    switch (entry.kind) {
      case "interaction.requested": {
        const { request } = entry;
        const id = request.interactionId;
        if (this.pendingById.has(id) || this.settled.get(id) !== undefined) return;
        const pending = newPending(request);
        pending.elsewhere = true;
        this.enqueue(sessionId, pending);
        return;
      }
      case "interaction.countdown": {
        const pending = this.pendingById.get(entry.interactionId);
        if (!pending) return;
        pending.countdown = entry.countdown;
        this.countdowns.follow(entry.interactionId, pending);
        return;
      }
      case "interaction.draft": {
        const pending = this.pendingById.get(entry.interactionId);
        if (pending) pending.draft = entry.draft;
        return;
      }
      case "interaction.resolved": {
        const pending = this.pendingById.get(entry.interactionId);
        if (!pending) {
          this.settled.set(entry.interactionId, settledCode(entry.outcome));
          return;
        }
        this.settleHere(entry.interactionId, pending, entry.outcome);
        this.activateHead(sessionId);
        return;
      }
      default:
        return;
    }
  }

  takeOver(sessionId: string, entries: readonly StoredEntry[]): void {
    for (const interactionId of this.queues.ids(sessionId)) {
      const pending = this.pendingById.get(interactionId);
      if (pending) pending.elsewhere = false;
    }
    // What resolved while the turn ran elsewhere waits for its call to ask again (A7).
    this.restore(sessionId, entries);
  }

  /** For tests: how much the registry holds (pending state must drain to nothing). */
  sizes(): Record<string, number> {
    return {
      pending: this.pendingById.size,
      queues: this.queues.size,
      settled: this.settled.size,
      lateAnswers: this.lateAnswers.size,
    };
  }

  close(): void {
    this.closed = true;
    for (const pending of this.pendingById.values()) this.countdowns.stop(pending);
  }
}

function aborted(signal: AbortSignal): InteractionOutcome {
  return { type: "aborted", reason: abortReason(signal) };
}

export function createInteractionRegistry(deps: InteractionRegistryDeps): InteractionRegistry {
  return new Registry(deps);
}

/** For tests: the sizes of a registry's internal maps. */
export function registrySizes(registry: InteractionRegistry): Record<string, number> {
  if (!(registry instanceof Registry)) throw new Error("not a registry built here");
  return registry.sizes();
}
