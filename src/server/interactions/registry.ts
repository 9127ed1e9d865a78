import type {
  CountdownState,
  InteractionOutcome,
  InteractionRequest,
  PermissionDecision,
  QuestionAnswers,
  QuestionDraft,
  ReceiptCode,
  SessionEntry,
  Settings,
  StoredEntry,
} from "../../protocol/index.ts";
import type { TimerHandle } from "../clock.ts";
import type { AskOutcome } from "../tools/contract.ts";
import { checkAnswers } from "./answerCheck.ts";
import type {
  InteractionRegistry,
  InteractionRegistryDeps,
  LateAnswerReceipt,
  PendingInteractionView,
  PermissionOutcome,
  Receipt,
} from "./port.ts";
import {
  ASK_USER_QUESTION_TOOL,
  type QuestionAsk,
  UserQuestionService,
} from "./questionService.ts";
import { lateAnswerText } from "./resultText.ts";

/** A failed write of an automatic resolution is retried after this long. */
const STORAGE_RETRY_MS = 1_000;

const OK: Receipt = { ok: true };

function rejected(code: ReceiptCode, message: string): Receipt {
  return { ok: false, code, message };
}

/**
 * A1/P12: only an AskUserQuestion batch can continue on its own; permissions and plan
 * reviews (a question carrying a plan-review intent) always wait for the user.
 */
export function isAutoContinueEligible(request: InteractionRequest): boolean {
  return (
    request.kind === "question" &&
    request.toolName === ASK_USER_QUESTION_TOOL &&
    !request.questions.some((question) => question.intent?.kind === "plan-review")
  );
}

/**
 * R3: what a late operation on a settled interaction hears. A user's own answer or decision
 * is ALREADY_ANSWERED; anything that ended without one (cancel, abort, auto-continue) is
 * NOT_PENDING.
 */
function settledCode(outcome: InteractionOutcome): ReceiptCode {
  if (outcome.type === "decided") return "ALREADY_ANSWERED";
  if (outcome.type === "answered" && !outcome.auto) return "ALREADY_ANSWERED";
  return "NOT_PENDING";
}

function toAskOutcome(outcome: InteractionOutcome): AskOutcome {
  if (outcome.type === "decided") return { type: "aborted", reason: "answered as a permission" };
  return outcome;
}

function toPermissionOutcome(outcome: InteractionOutcome): PermissionOutcome {
  if (outcome.type === "decided") return outcome;
  if (outcome.type === "aborted") return outcome;
  return { type: "aborted", reason: `resolved as ${outcome.type}` };
}

function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (typeof reason === "string" && reason) return reason;
  if (reason instanceof Error && reason.name !== "AbortError" && reason.message) {
    return reason.message;
  }
  return "the turn was cancelled";
}

function adoptionKey(sessionId: string, toolCallId: string): string {
  return `${sessionId}\u0000${toolCallId}`;
}

/** How an asker reads an outcome; one of a few shared functions, never a fresh closure. */
type Translate = (outcome: InteractionOutcome) => unknown;

/**
 * Thousands of these wait at once (bench/manyQuestions), so the asker is kept as its promise's
 * resolver plus a shared translation, and the abort signal is watched once per signal, not
 * once per interaction: no closures or listener records per interaction.
 */
interface Pending {
  readonly request: InteractionRequest;
  /** Undefined until the interaction reaches the head and is timed (or found ineligible). */
  countdown: CountdownState | undefined;
  timer: TimerHandle | undefined;
  draft: QuestionDraft | undefined;
  /** The three below are absent for an interaction restored from the log and not yet adopted. */
  deliver: ((value: unknown) => void) | undefined;
  translate: Translate | undefined;
  signal: AbortSignal | undefined;
}

function settle(pending: Pending, outcome: InteractionOutcome): void {
  const { deliver, translate } = pending;
  pending.deliver = undefined;
  if (deliver && translate) deliver(translate(outcome));
}

interface AutoResolved {
  readonly request: Extract<InteractionRequest, { kind: "question" }>;
  lateAnswered: boolean;
}

class Registry implements InteractionRegistry {
  private readonly pendingById = new Map<string, Pending>();
  private readonly queues = new Map<string, string[]>();
  private readonly settled = new Map<string, ReceiptCode>();
  private readonly autoResolved = new Map<string, AutoResolved>();
  /** A7: restored interactions whose asker has not re-run yet, by session + tool call. */
  private readonly adoptable = new Map<string, string>();
  private readonly outcomesForAdoption = new Map<
    string,
    { kind: InteractionRequest["kind"]; outcome: InteractionOutcome }
  >();
  private readonly questions: UserQuestionService;
  private readonly watchedSignals = new WeakSet<AbortSignal>();
  private closed = false;

  constructor(private readonly deps: InteractionRegistryDeps) {
    this.questions = new UserQuestionService((sessionId, request, signal) =>
      this.enqueueQuestions(sessionId, request, signal),
    );
  }

  askQuestions(sessionId: string, request: QuestionAsk, signal: AbortSignal): Promise<AskOutcome> {
    return this.questions.ask(sessionId, request, signal);
  }

  askPermission(
    sessionId: string,
    request: { toolName: string; toolCallId: string; summary: string; input: unknown },
    signal: AbortSignal,
  ): Promise<PermissionOutcome> {
    return this.enqueue(
      sessionId,
      request.toolCallId,
      "permission",
      (interactionId) => ({
        kind: "permission",
        interactionId,
        sessionId,
        toolName: request.toolName,
        toolCallId: request.toolCallId,
        summary: request.summary,
        input: request.input,
        createdAt: this.deps.clock.now(),
      }),
      signal,
      toPermissionOutcome,
    );
  }

  private enqueueQuestions(
    sessionId: string,
    request: QuestionAsk,
    signal: AbortSignal,
  ): Promise<AskOutcome> {
    return this.enqueue(
      sessionId,
      request.toolCallId,
      "question",
      (interactionId) => ({
        kind: "question",
        interactionId,
        sessionId,
        toolName: request.toolName,
        toolCallId: request.toolCallId,
        questions: request.questions,
        createdAt: this.deps.clock.now(),
        ...(request.planRevision ? { planRevision: request.planRevision } : {}),
      }),
      signal,
      toAskOutcome,
    );
  }

  answeredBeforeRestart(sessionId: string, toolCallId: string): boolean {
    const decided = this.outcomesForAdoption.get(adoptionKey(sessionId, toolCallId));
    return decided?.kind === "question" && decided.outcome.type === "answered";
  }

  private enqueue<T>(
    sessionId: string,
    toolCallId: string,
    kind: InteractionRequest["kind"],
    build: (interactionId: string) => InteractionRequest,
    signal: AbortSignal,
    map: (outcome: InteractionOutcome) => T,
  ): Promise<T> {
    const key = adoptionKey(sessionId, toolCallId);
    const decided = this.outcomesForAdoption.get(key);
    if (decided?.kind === kind) {
      this.outcomesForAdoption.delete(key);
      return Promise.resolve(map(decided.outcome));
    }
    if (signal.aborted)
      return Promise.resolve(map({ type: "aborted", reason: abortReason(signal) }));

    const restoredId = this.adoptable.get(key);
    const restored = restoredId === undefined ? undefined : this.pendingById.get(restoredId);
    if (restoredId !== undefined && restored && restored.request.kind === kind) {
      this.adoptable.delete(key);
      return new Promise<T>((resolve) => {
        this.attachAsker(restored, signal, resolve as (value: unknown) => void, map);
      });
    }

    const request = build(this.deps.newId());
    try {
      this.deps.append(sessionId, { kind: "interaction.requested", request });
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<T>((resolve) => {
      const pending: Pending = {
        request,
        countdown: undefined,
        timer: undefined,
        draft: undefined,
        deliver: undefined,
        translate: undefined,
        signal: undefined,
      };
      this.pendingById.set(request.interactionId, pending);
      this.attachAsker(pending, signal, resolve as (value: unknown) => void, map);
      const queue = this.queueOf(sessionId);
      queue.push(request.interactionId);
      if (queue.length === 1) this.activateHead(sessionId);
    });
  }

  private attachAsker(
    pending: Pending,
    signal: AbortSignal,
    deliver: (value: unknown) => void,
    translate: Translate,
  ): void {
    pending.deliver = deliver;
    pending.translate = translate;
    pending.signal = signal;
    if (this.watchedSignals.has(signal)) return;
    this.watchedSignals.add(signal);
    signal.addEventListener("abort", () => this.abortAllAskedUnder(signal), { once: true });
  }

  /** Q8: a cancelled turn takes every interaction it is still waiting on with it. */
  private abortAllAskedUnder(signal: AbortSignal): void {
    if (this.closed) return;
    const reason = abortReason(signal);
    for (const [interactionId, pending] of [...this.pendingById]) {
      if (pending.signal === signal && this.pendingById.has(interactionId)) {
        this.abortOne(interactionId, pending, reason, true);
      }
    }
  }

  private queueOf(sessionId: string): string[] {
    let queue = this.queues.get(sessionId);
    if (!queue) {
      queue = [];
      this.queues.set(sessionId, queue);
    }
    return queue;
  }

  /** A1/A2: the head starts its countdown when it is eligible and auto-continue is on now. */
  private activateHead(sessionId: string): void {
    const headId = this.queues.get(sessionId)?.[0];
    const head = headId === undefined ? undefined : this.pendingById.get(headId);
    if (headId === undefined || !head || head.countdown !== undefined) return;
    if (!isAutoContinueEligible(head.request)) {
      head.countdown = { phase: "ineligible" };
      return;
    }
    if (!this.deps.settings().autoContinue) {
      this.recordCountdown(headId, head, { phase: "ineligible" });
      return;
    }
    const startedAt = this.deps.clock.now();
    const counting: CountdownState = {
      phase: "counting",
      startedAt,
      visibleAt: startedAt + this.deps.timings.graceMs,
      deadlineAt: startedAt + this.deps.timings.deadlineMs,
    };
    if (this.recordCountdown(headId, head, counting)) {
      this.armDeadline(headId, head, this.deps.timings.deadlineMs);
    }
  }

  private recordCountdown(interactionId: string, pending: Pending, countdown: CountdownState) {
    try {
      this.deps.append(pending.request.sessionId, {
        kind: "interaction.countdown",
        interactionId,
        countdown,
      });
    } catch {
      return false;
    }
    pending.countdown = countdown;
    return true;
  }

  private armDeadline(interactionId: string, pending: Pending, ms: number): void {
    if (pending.timer !== undefined) this.deps.clock.clearTimeout(pending.timer);
    pending.timer = this.deps.clock.setTimeout(() => this.onDeadline(interactionId), ms);
  }

  /** A5: a firing timer re-checks everything; only a still-counting question resolves. */
  private onDeadline(interactionId: string): void {
    const pending = this.pendingById.get(interactionId);
    if (!pending) return;
    pending.timer = undefined;
    const countdown = pending.countdown;
    if (countdown?.phase !== "counting") return;
    const now = this.deps.clock.now();
    if (now < countdown.deadlineAt) {
      this.armDeadline(interactionId, pending, countdown.deadlineAt - now);
      return;
    }
    if (!this.deps.settings().autoContinue) {
      this.pause(interactionId, pending);
      return;
    }
    const resolved = this.resolve(interactionId, pending, {
      type: "answered",
      answers: {},
      auto: true,
    });
    if (!resolved) this.armDeadline(interactionId, pending, STORAGE_RETRY_MS);
  }

  /** A4: pausing is final. */
  private pause(interactionId: string, pending: Pending): boolean {
    const paused = this.recordCountdown(interactionId, pending, {
      phase: "paused",
      pausedAt: this.deps.clock.now(),
    });
    if (paused && pending.timer !== undefined) {
      this.deps.clock.clearTimeout(pending.timer);
      pending.timer = undefined;
    }
    return paused;
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
  ): boolean {
    const sessionId = pending.request.sessionId;
    try {
      this.deps.append(sessionId, { kind: "interaction.resolved", interactionId, outcome });
    } catch {
      return false;
    }
    this.forget(interactionId, pending, outcome);
    if (pending.deliver) {
      settle(pending, outcome);
    } else {
      const key = adoptionKey(sessionId, pending.request.toolCallId);
      this.adoptable.delete(key);
      this.outcomesForAdoption.set(key, { kind: pending.request.kind, outcome });
    }
    if (activateNext) this.activateHead(sessionId);
    return true;
  }

  private forget(interactionId: string, pending: Pending, outcome: InteractionOutcome): void {
    if (pending.timer !== undefined) this.deps.clock.clearTimeout(pending.timer);
    pending.timer = undefined;
    pending.signal = undefined;
    this.pendingById.delete(interactionId);
    const sessionId = pending.request.sessionId;
    const queue = this.queues.get(sessionId);
    if (queue) {
      const index = queue.indexOf(interactionId);
      if (index >= 0) queue.splice(index, 1);
      if (queue.length === 0) this.queues.delete(sessionId);
    }
    this.settled.set(interactionId, settledCode(outcome));
    if (outcome.type === "answered" && outcome.auto && pending.request.kind === "question") {
      this.autoResolved.set(interactionId, { request: pending.request, lateAnswered: false });
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

  answer(interactionId: string, answers: QuestionAnswers): Receipt {
    const found = this.lookup(interactionId);
    if (!("request" in found)) return found;
    if (found.request.kind !== "question") {
      return rejected("WRONG_KIND", "a permission is decided, not answered");
    }
    const checked = checkAnswers(found.request.questions, answers);
    if (!checked.ok) return rejected(checked.code ?? "INVALID_ANSWER", checked.message);
    const outcome: InteractionOutcome = { type: "answered", answers: checked.answers, auto: false };
    return this.resolve(interactionId, found, outcome) ? OK : storageFailed();
  }

  cancel(interactionId: string): Receipt {
    const found = this.lookup(interactionId);
    if (!("request" in found)) return found;
    if (found.request.kind !== "question") {
      return rejected("WRONG_KIND", "a permission is decided, not cancelled");
    }
    return this.resolve(interactionId, found, { type: "cancelled" }) ? OK : storageFailed();
  }

  decide(interactionId: string, decision: PermissionDecision): Receipt {
    const found = this.lookup(interactionId);
    if (!("request" in found)) return found;
    if (found.request.kind !== "permission") {
      return rejected("WRONG_KIND", "a question is answered, not decided");
    }
    return this.resolve(interactionId, found, { type: "decided", decision }) ? OK : storageFailed();
  }

  touch(interactionId: string): Receipt {
    const found = this.lookup(interactionId);
    if (!("request" in found)) return found;
    if (found.countdown?.phase !== "counting") return OK;
    return this.pause(interactionId, found) ? OK : storageFailed();
  }

  /** X3; a draft also means the user is at work on the question, so it pauses like a touch (A4). */
  saveDraft(interactionId: string, draft: QuestionDraft): Receipt {
    const found = this.lookup(interactionId);
    if (!("request" in found)) return found;
    if (found.request.kind !== "question") {
      return rejected("WRONG_KIND", "a permission has no draft");
    }
    if (found.countdown?.phase === "counting" && !this.pause(interactionId, found)) {
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
      if (pending.countdown?.phase === "counting") this.pause(interactionId, pending);
    }
  }

  abortSession(sessionId: string, reason: string): void {
    const queue = this.queues.get(sessionId);
    if (!queue) return;
    for (const interactionId of [...queue]) {
      const pending = this.pendingById.get(interactionId);
      if (pending) this.abortOne(interactionId, pending, reason, false);
    }
  }

  pendingCount(sessionId: string): number {
    return this.queues.get(sessionId)?.length ?? 0;
  }

  pending(sessionId: string): PendingInteractionView[] {
    const queue = this.queues.get(sessionId) ?? [];
    return queue.flatMap((interactionId) => {
      const pending = this.pendingById.get(interactionId);
      if (!pending) return [];
      const view: PendingInteractionView = {
        request: pending.request,
        countdown: pending.countdown ?? { phase: "ineligible" },
      };
      if (pending.draft) view.draft = pending.draft;
      return [view];
    });
  }

  acceptLateAnswer(interactionId: string, answers: QuestionAnswers): LateAnswerReceipt {
    const auto = this.autoResolved.get(interactionId);
    if (!auto) {
      if (this.pendingById.has(interactionId)) {
        return { ok: false, code: "NOT_PENDING", message: "still pending: answer it instead" };
      }
      const code = this.settled.get(interactionId);
      if (code) return { ok: false, code, message: "it did not continue automatically" };
      return { ok: false, code: "UNKNOWN_INTERACTION", message: "no such interaction" };
    }
    if (auto.lateAnswered) {
      return { ok: false, code: "ALREADY_ANSWERED", message: "a late answer was already given" };
    }
    const checked = checkAnswers(auto.request.questions, answers);
    if (!checked.ok) return { ok: false, code: "INVALID_ANSWER", message: checked.message };
    if (Object.keys(checked.answers).length === 0) {
      return { ok: false, code: "INVALID_ANSWER", message: "a late answer must answer something" };
    }
    auto.lateAnswered = true;
    return {
      ok: true,
      sessionId: auto.request.sessionId,
      toolCallId: auto.request.toolCallId,
      questions: auto.request.questions,
      answers: checked.answers,
      text: lateAnswerText(auto.request.questions, checked.answers),
    };
  }

  releaseLateAnswer(interactionId: string): void {
    const auto = this.autoResolved.get(interactionId);
    if (auto) auto.lateAnswered = false;
  }

  /**
   * A6/A7: rebuild one session from its log. Counting heads whose deadline passed while the
   * server was down resolve now; the others get their timer back for the remaining time.
   */
  restore(sessionId: string, entries: readonly StoredEntry[]): void {
    const requests = new Map<string, InteractionRequest>();
    const order: string[] = [];
    const countdowns = new Map<string, CountdownState>();
    const drafts = new Map<string, QuestionDraft>();
    const outcomes = new Map<string, InteractionOutcome>();
    const finishedCalls = new Set<string>();
    const lateAnswered = new Set<string>();
    for (const { entry } of entries) {
      this.collect(entry, {
        requests,
        order,
        countdowns,
        drafts,
        outcomes,
        finishedCalls,
        lateAnswered,
      });
    }

    for (const [interactionId, outcome] of outcomes) {
      const request = requests.get(interactionId);
      this.settled.set(interactionId, settledCode(outcome));
      if (!request) continue;
      if (outcome.type === "answered" && outcome.auto && request.kind === "question") {
        this.autoResolved.set(interactionId, {
          request,
          lateAnswered: lateAnswered.has(interactionId),
        });
      }
      if (!finishedCalls.has(request.toolCallId)) {
        const key = adoptionKey(sessionId, request.toolCallId);
        this.outcomesForAdoption.set(key, { kind: request.kind, outcome });
      }
    }

    const queue = this.queueOf(sessionId);
    for (const interactionId of order) {
      const request = requests.get(interactionId);
      if (!request || outcomes.has(interactionId) || this.pendingById.has(interactionId)) continue;
      this.pendingById.set(interactionId, {
        request,
        countdown: countdowns.get(interactionId),
        timer: undefined,
        draft: drafts.get(interactionId),
        deliver: undefined,
        translate: undefined,
        signal: undefined,
      });
      queue.push(interactionId);
      this.adoptable.set(adoptionKey(sessionId, request.toolCallId), interactionId);
    }
    if (queue.length === 0) {
      this.queues.delete(sessionId);
      return;
    }
    for (const interactionId of [...queue]) this.resumeCountdown(interactionId);
    this.activateHead(sessionId);
  }

  private collect(
    entry: SessionEntry,
    into: {
      requests: Map<string, InteractionRequest>;
      order: string[];
      countdowns: Map<string, CountdownState>;
      drafts: Map<string, QuestionDraft>;
      outcomes: Map<string, InteractionOutcome>;
      finishedCalls: Set<string>;
      lateAnswered: Set<string>;
    },
  ): void {
    switch (entry.kind) {
      case "interaction.requested":
        into.requests.set(entry.request.interactionId, entry.request);
        into.order.push(entry.request.interactionId);
        break;
      case "interaction.countdown":
        into.countdowns.set(entry.interactionId, entry.countdown);
        break;
      case "interaction.draft":
        into.drafts.set(entry.interactionId, entry.draft);
        break;
      case "interaction.resolved":
        if (!into.outcomes.has(entry.interactionId)) {
          into.outcomes.set(entry.interactionId, entry.outcome);
        }
        break;
      case "tool.result":
        into.finishedCalls.add(entry.callId);
        break;
      case "user.message":
        if (entry.lateAnswerFor !== undefined) into.lateAnswered.add(entry.lateAnswerFor);
        break;
      default:
        break;
    }
  }

  private resumeCountdown(interactionId: string): void {
    const pending = this.pendingById.get(interactionId);
    const countdown = pending?.countdown;
    if (!pending || countdown?.phase !== "counting") return;
    const remaining = countdown.deadlineAt - this.deps.clock.now();
    if (remaining <= 0) {
      const outcome: InteractionOutcome = { type: "answered", answers: {}, auto: true };
      if (!this.resolve(interactionId, pending, outcome, false)) {
        this.armDeadline(interactionId, pending, STORAGE_RETRY_MS);
      }
      return;
    }
    if (!this.deps.settings().autoContinue) {
      this.pause(interactionId, pending);
      return;
    }
    this.armDeadline(interactionId, pending, remaining);
  }

  close(): void {
    this.closed = true;
    for (const pending of this.pendingById.values()) {
      if (pending.timer !== undefined) this.deps.clock.clearTimeout(pending.timer);
      pending.timer = undefined;
    }
  }
}

function storageFailed(): Receipt {
  return rejected("STORAGE_FAILED", "the session log could not be written");
}

export function createInteractionRegistry(deps: InteractionRegistryDeps): InteractionRegistry {
  return new Registry(deps);
}
