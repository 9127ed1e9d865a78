import { rm } from "node:fs/promises";
import {
  type ExecutionMode,
  isDrivenOverMcp,
  type ModeName,
  type SessionEntry,
  type SessionSummary,
  type StoredEntry,
} from "../../protocol/index.ts";
import { englishTurnNotice, type TurnNotice } from "../../shared/turnNotices.ts";
import type { InteractionPort } from "../interactions/port.ts";
import { ModelError, type ModelProvider } from "../models/provider.ts";
import type { PermissionCheck } from "../permissions/decide.ts";
import { compactWeighed, DEFAULT_COMPACT_ABOVE_CHARS } from "../plan/compaction.ts";
import { ExecutionStates } from "../plan/executionState.ts";
import { planFilePath, readPlanFileExcerpt } from "../plan/planFile.ts";
import { newSessionId } from "../store/ids.ts";
import type { SessionLog, SessionRecord } from "../store/sessionLog.ts";
import { isStorageFailure, storageProblemOf } from "../store/storageHealth.ts";
import type { TodoReminderHook } from "../todos/reminder.ts";
import type { ToolContextExtras, ToolResult } from "../tools/contract.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import { TurnAborted, untilAborted } from "./abortable.ts";
import { danglingCalls, hasOpenTurn, type OpenCall } from "./conversation.ts";
import { applyModeName, initialMode } from "./modes.ts";
import { SessionProjections } from "./sessionProjection.ts";
import { defaultSystemPrompt, type SystemPromptContext } from "./systemPrompt.ts";
import { type ToolCallToRun, ToolExecutor, type ToolExecutorDeps } from "./toolExecutor.ts";
import type { TurnLocks } from "./turnLocks.ts";
import type { CallEnd, CallRecorder } from "./userStepCall.ts";

export const MAX_MODEL_CALLS_PER_TURN = 50;

export interface SessionManagerDeps {
  log: SessionLog;
  interactions: InteractionPort;
  tools: ToolRegistry;
  /** The provider for a session's model reference; may throw when it cannot be made. */
  providerFor: (modelRef: string) => ModelProvider;
  permissions: PermissionCheck;
  /** Absolute real path of the workspace. */
  workspace: string;
  /** Model and mode of new sessions. */
  defaultModel: string;
  defaultMode: ModeName;
  /** Streamed assistant text of the running turn; not stored. */
  onDelta?: (sessionId: string, text: string) => void;
  systemPrompt?: (context: SystemPromptContext) => string;
  newId?: () => string;
  maxModelCalls?: number;
  /** T5: a todo reminder to store as a synthetic notice before a model call, when one is due. */
  todoReminder?: TodoReminderHook;
  /** Host capabilities for tools (catalog, todos, other sessions); passed to the executor. */
  contextFor?: ToolExecutorDeps["contextFor"];
  /** "Always allow" on an approval card: saves the permission (see PermissionService). */
  rememberAllow?: ToolExecutorDeps["rememberAllow"];
  /** Conversations longer than this many characters are compacted before a model call. */
  compactAboveChars?: number;
  /** S2: several servers share the sessions; a session's turn runs where its lock is held. */
  turnLocks?: TurnLocks;
  /** S2: asks the other servers to stop the session's turn, should one of them run it. */
  cancelElsewhere?: (sessionId: string, reason: string) => void;
  /** S2: how often sessions whose turn runs elsewhere are checked for a dead server. */
  takeOverEveryMs?: number;
  /** R3: a turn stopped but the store refused its end too; `code` is the notice saying why. */
  onTurnStopped?: (sessionId: string, code: string) => void;
}

const TAKE_OVER_EVERY_MS = 1_000;

/** Thrown by appends after `close()`: the turn stops writing and resumes after a restart. */
class ManagerClosed extends Error {}

/** R3: what a stopped turn still has to write, and the notice its pages show meanwhile. */
interface UnsavedEnd {
  entries: SessionEntry[];
  code: string;
}

interface RunningTurn {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Owns the sessions' turns: one turn at a time per session, each a loop of model calls and
 * tool runs whose every step is an entry in the log. Everything it knows is derived from the
 * log (a projection folded entry by entry), so a restart continues an unfinished turn where it
 * stopped.
 */
export class SessionManager {
  private readonly running = new Map<string, RunningTurn>();
  private readonly executor: ToolExecutor;
  /** P4: made first, so the modes in memory follow an entry before anyone broadcasts it. */
  private readonly modes: ExecutionStates;
  /** X1: an external call's result goes in the log before its caller hears it. */
  private readonly externalResults: CallRecorder = {
    record: (sessionId, call, result) => this.recordResult(sessionId, call, result),
    resultOfFailure: (name, error, signal) => {
      const why = signal.aborted ? "the agent withdrew the call" : callFailure(error);
      return { output: `${name} produced no result: ${why}.`, isError: true };
    },
  };
  private readonly projections: SessionProjections;
  /** S2: sessions whose turn another server runs (or may be about to run); see `takeOver`. */
  private readonly elsewhere = new Set<string>();
  /** S2: the seq of a prompt given here while the session's turn ran on another server. */
  private readonly promptedElsewhere = new Map<string, number>();
  private takeOverTimer: NodeJS.Timeout | undefined;
  /** S2: sessions whose turn lock was lost to another server: their turn here writes nothing. */
  private readonly lockLost = new Set<string>();
  private readonly unsubscribeElsewhere: () => void;
  /** R3: turns that stopped while the store refused their end; written when it takes writes. */
  private readonly unsavedEnds = new Map<string, UnsavedEnd>();
  private closed = false;

  constructor(private readonly deps: SessionManagerDeps) {
    this.modes = new ExecutionStates(deps.log);
    this.projections = new SessionProjections(deps.log);
    const unsubscribeEntries = deps.log.subscribe((sessionId, { entry }, origin) => {
      if (origin === "elsewhere" && entry.kind === "turn.started") this.elsewhere.add(sessionId);
    });
    // S2: a session another server deleted is no longer watched for a turn to take over.
    const unsubscribeChanges = deps.log.subscribeSessionChanges((sessionId, change) => {
      if (change !== "deleted") return;
      this.elsewhere.delete(sessionId);
      this.promptedElsewhere.delete(sessionId);
      this.unsavedEnds.delete(sessionId);
      this.modes.forget(sessionId);
    });
    this.unsubscribeElsewhere = () => {
      unsubscribeEntries();
      unsubscribeChanges();
    };
    this.executor = new ToolExecutor({
      ...deps,
      stepOf: (sessionId, callId) => this.projections.get(sessionId).stepOf(callId),
      contextFor: (sessionId) => ({
        ...deps.contextFor?.(sessionId),
        ...this.sessionControls(sessionId),
      }),
    });
  }

  /** A7 + resume: rebuild pending interactions of every session and continue open turns. */
  start(): void {
    for (const session of this.deps.log.listSessions()) {
      const entries = this.deps.log.entriesAfter(session.id, 0);
      // Only sessions whose turn goes on are loaded now; the others on their next prompt.
      const resumes = !isDrivenOverMcp(session.model) && hasOpenTurn(entries);
      // S2: a turn another server runs stays there; this one takes over if that server dies.
      const here = resumes && this.claim(session.id);
      if (resumes && !here) this.elsewhere.add(session.id);
      if (here) this.projections.load(session.id, entries);
      this.deps.interactions.restore(session.id, entries, { elsewhere: resumes && !here });
      // B8: an agent over MCP runs its own turns; its unfinished calls wait for it to call again.
      if (here) {
        this.launch(session.id, danglingCalls(entries));
      }
    }
    this.deps.turnLocks?.onLost?.((sessionId) => this.turnLockLost(sessionId));
    if (this.deps.turnLocks) {
      const every = this.deps.takeOverEveryMs ?? TAKE_OVER_EVERY_MS;
      this.takeOverTimer = setInterval(() => this.takeOverFromDead(), every);
      this.takeOverTimer.unref();
    }
  }

  /** S2: whether this server may run the session's turn now (always, with one server). */
  /**
   * S2: the store's connection dropped and another server took the session's lock meanwhile:
   * the turn stops here without writing (that server goes on with it), and this server watches
   * the session again as one whose turn runs elsewhere.
   */
  private turnLockLost(sessionId: string): void {
    const turn = this.running.get(sessionId);
    this.elsewhere.add(sessionId);
    if (!turn) return;
    console.error(`session ${sessionId}: the turn lock was lost; another server runs the turn`);
    this.lockLost.add(sessionId);
    this.running.delete(sessionId);
    this.deps.interactions.handOver?.(sessionId);
    turn.controller.abort("the turn lock was lost");
  }

  private claim(sessionId: string): boolean {
    return this.deps.turnLocks?.tryTake(sessionId) ?? true;
  }

  /**
   * S2: each session whose turn ran elsewhere and whose lock is free now: a server that died
   * mid-turn left it, and its turn resumes here with its questions and their deadlines as they
   * were (A7); a prompt that found the turn just ending starts a turn; otherwise nothing to do.
   */
  private takeOverFromDead(): void {
    for (const sessionId of [...this.elsewhere]) {
      if (this.closed) return;
      if (this.running.has(sessionId)) {
        this.elsewhere.delete(sessionId);
        this.promptedElsewhere.delete(sessionId);
        continue;
      }
      try {
        if (!this.claim(sessionId)) continue;
        this.elsewhere.delete(sessionId);
        this.deps.log.catchUp(sessionId);
        if (!this.deps.log.getSession(sessionId)) {
          this.deps.turnLocks?.release(sessionId);
          continue;
        }
        const entries = this.deps.log.entriesAfter(sessionId, 0);
        if (hasOpenTurn(entries)) {
          this.resumeHere(sessionId, entries);
        } else if (
          this.projections.load(sessionId, entries).userSpokeSince(lastTurnEnd(entries)) ||
          unheard(entries, this.promptedElsewhere.get(sessionId))
        ) {
          this.promptedElsewhere.delete(sessionId);
          this.append(sessionId, { kind: "turn.started" });
          this.launch(sessionId, []);
        } else {
          this.promptedElsewhere.delete(sessionId);
          this.deps.turnLocks?.release(sessionId);
        }
      } catch (error) {
        // R3: an outage is logged by the store's health, once per interval, not per session per beat.
        if (!isStorageFailure(error))
          console.error(`session ${sessionId}: could not take the turn over:`, error);
      }
    }
  }

  /** S2/A7: a turn a dead server left open goes on here, its questions and calls as they were. */
  private resumeHere(sessionId: string, entries: readonly StoredEntry[]): void {
    this.projections.load(sessionId, entries);
    this.deps.interactions.takeOver(sessionId, entries);
    this.launch(sessionId, danglingCalls(entries));
  }

  create(
    options: { title?: string | undefined; mode?: ModeName | undefined; model?: string } = {},
  ): SessionRecord {
    const { session } = this.deps.log.createSession({
      id: (this.deps.newId ?? newSessionId)(),
      title: options.title ?? "",
      model: options.model ?? this.deps.defaultModel,
      mode: initialMode(options.mode ?? this.deps.defaultMode),
    });
    return session;
  }

  /**
   * W1: "New session" from a person. `lastCreated`, the session this person's New session
   * made last, is handed back while it is as it was created (no entry after `session.created`,
   * no title, the model and mode a new one would get) instead of piling up another empty one;
   * anything written to it (a draft, a mode) keeps it.
   */
  createOrReuseEmpty(
    options: { title?: string | undefined; mode?: ModeName | undefined },
    lastCreated: string | undefined,
  ): { session: SessionRecord; reused: boolean } {
    const last = lastCreated === undefined ? undefined : this.deps.log.getSession(lastCreated);
    if (!options.title && last !== undefined) {
      const mode = initialMode(options.mode ?? this.deps.defaultMode);
      const untouched =
        last.lastSeq === 1 &&
        last.title === "" &&
        last.model === this.deps.defaultModel &&
        last.mode.permissionMode === mode.permissionMode &&
        last.mode.planEnabled === mode.planEnabled;
      if (untouched) return { session: last, reused: true };
    }
    return { session: this.create(options), reused: false };
  }

  /** W14: the message box's draft, kept in the log like question drafts (X3); same text is a no-op. */
  saveComposerDraft(sessionId: string, text: string): void {
    this.deps.log.requireSession(sessionId);
    if (this.composerDraft(sessionId) === text) return;
    this.append(sessionId, { kind: "composer.draft", text });
  }

  composerDraft(sessionId: string): string {
    const latest = this.deps.log.latestOfKind(sessionId, "composer.draft", Number.MAX_SAFE_INTEGER);
    return latest?.entry.kind === "composer.draft" ? latest.entry.text : "";
  }

  /** W15: a title the user chose in the list. */
  rename(sessionId: string, title: string): SessionRecord {
    return this.deps.log.rename(sessionId, title.trim());
  }

  /**
   * W15: stops the session's turn and closes its cards (no one will answer them), waits for the
   * turn to stop writing, then deletes its log, todos and drafts, and its plan file.
   */
  async delete(sessionId: string): Promise<void> {
    this.deps.log.requireSession(sessionId);
    this.cancelTurn(sessionId, "the session was deleted");
    await this.idle(sessionId);
    // No await between here and the delete: nothing can write to the session in between.
    this.deps.interactions.abortSession(sessionId, "the session was deleted");
    this.deps.log.deleteSession(sessionId);
    this.unsavedEnds.delete(sessionId);
    this.modes.forget(sessionId);
    await rm(planFilePath(this.deps.workspace, sessionId), { force: true });
  }

  summary(session: SessionRecord): SessionSummary {
    return { ...session, pendingInteractions: this.deps.interactions.pendingCount(session.id) };
  }

  summaries(): SessionSummary[] {
    return this.deps.log.listSessions().map((session) => this.summary(session));
  }

  /**
   * Records the user's message. While a turn runs the message joins it (the next model call
   * sees it); otherwise it starts a turn.
   */
  prompt(
    sessionId: string,
    text: string,
    options: { synthetic?: boolean; lateAnswerFor?: string } = {},
  ): StoredEntry {
    const session = this.deps.log.requireSession(sessionId);
    const entry: SessionEntry = { kind: "user.message", text };
    if (options.synthetic) entry.synthetic = true;
    if (options.lateAnswerFor !== undefined) entry.lateAnswerFor = options.lateAnswerFor;
    // X1: an agent over MCP runs its own turns; it hears this message with its next result.
    if (this.running.has(sessionId) || isDrivenOverMcp(session.model)) {
      return this.append(sessionId, entry);
    }
    if (!this.claim(sessionId)) {
      // S2: the server running the turn hears the message; should that turn be ending
      // right now, this server starts the next one once the lock is free.
      const stored = this.append(sessionId, entry);
      this.elsewhere.add(sessionId);
      this.promptedElsewhere.set(sessionId, stored.seq);
      return stored;
    }
    let stored: StoredEntry;
    const resumes =
      this.deps.turnLocks !== undefined &&
      !this.unsavedEnds.has(sessionId) &&
      this.projections.get(sessionId).hasOpenTurn();
    let unsaved: UnsavedEnd | undefined;
    try {
      // R3: the message and the turn it starts are written together: a log that took the one
      // and refused the other showed a message as sent that no turn would ever answer. The
      // previous turn's end, should the store have refused it, goes first.
      stored = this.deps.log.batch(() => {
        unsaved = this.appendUnsavedEnd(sessionId);
        const message = this.append(sessionId, entry);
        if (!resumes) this.append(sessionId, { kind: "turn.started" });
        return message;
      });
    } catch (error) {
      if (unsaved) this.unsavedEnds.set(sessionId, unsaved);
      this.deps.turnLocks?.release(sessionId);
      throw error;
    }
    if (resumes) {
      // S2/A7: the server running the turn died before anyone took it over; the turn goes
      // on here with this message in it, its questions keeping their deadlines.
      this.elsewhere.delete(sessionId);
      this.promptedElsewhere.delete(sessionId);
      this.resumeHere(sessionId, this.deps.log.entriesAfter(sessionId, 0));
    } else {
      this.launch(sessionId, []);
    }
    return stored;
  }

  /**
   * X1: runs one call an agent made over MCP, recorded like a turn's tool call: the call, the
   * same executor (checks, cards, countdown), then the result, and tells `end` once the result is
   * recorded. The call's own failures are error results the agent reads; `end` fails only when
   * the log refuses the result, and this throws when it refuses the call itself. While the call
   * waits on the user, what it holds is data: its question in the registry and one UserStepCall
   * (issue 15).
   */
  runExternalCallTo(
    sessionId: string,
    call: ToolCallToRun,
    tools: ToolRegistry,
    signal: AbortSignal,
    end: CallEnd,
    options: { resumed?: boolean; task?: boolean } = {},
  ): void {
    // B8: a resumed call is already in the log; it runs from its answered step, or waits on
    // its still pending card (A7).
    if (!options.resumed) {
      this.append(sessionId, {
        kind: "tool.call",
        callId: call.callId,
        name: call.name,
        input: call.input,
        ...(options.task ? { task: true as const } : {}),
      });
    }
    const mode = this.modes.reader(sessionId);
    this.executor.runTo(sessionId, call, mode, signal, tools, end, this.externalResults);
  }

  private recordResult(sessionId: string, call: OpenCall, result: ToolResult): void {
    this.append(sessionId, {
      kind: "tool.result",
      callId: call.callId,
      name: call.name,
      isError: result.isError ?? false,
      output: result.output,
      ...(result.structured && !result.isError ? { structured: result.structured } : {}),
    });
  }

  /** Stops the running turn; returns false when none was running. */
  cancelTurn(sessionId: string, reason = "the user stopped the turn"): boolean {
    this.deps.log.requireSession(sessionId);
    const turn = this.running.get(sessionId);
    if (!turn) {
      // S2: first, so the server running the turn stops it before it hears of its question
      // aborted here: heard first, that abort is an answer its turn would go on with.
      this.deps.cancelElsewhere?.(sessionId, reason);
      this.deps.interactions.abortSession(sessionId, reason);
      return false;
    }
    this.deps.interactions.abortSession(sessionId, reason);
    turn.controller.abort(reason);
    return true;
  }

  /** S2: another server asked to stop the session's turn; stops it if it runs here. */
  cancelAskedElsewhere(sessionId: string, reason: string): void {
    const turn = this.running.get(sessionId);
    if (!turn || this.closed) return;
    this.deps.interactions.abortSession(sessionId, reason);
    turn.controller.abort(reason);
  }

  /**
   * P1/P4: the change is an entry first (the session row follows it in the same transaction),
   * then the mode in memory, then the broadcast. A failed write throws and changes nothing.
   */
  setMode(sessionId: string, name: ModeName): ExecutionMode {
    this.deps.log.requireSession(sessionId);
    if (this.closed) throw new ManagerClosed("the session manager is closed");
    return this.modes.change(sessionId, applyModeName(this.modes.get(sessionId), name));
  }

  /** The session's execution mode as the turn loop and the permission check see it. */
  mode(sessionId: string): ExecutionMode {
    return this.modes.get(sessionId);
  }

  setModel(sessionId: string, model: string): void {
    const session = this.deps.log.requireSession(sessionId);
    if (session.model !== model) this.append(sessionId, { kind: "session.modelChanged", model });
  }

  isRunning(sessionId: string): boolean {
    return this.running.has(sessionId);
  }

  /** R3: the notice of the session's stopped turn whose end the store has not taken yet. */
  unsavedEnd(sessionId: string): string | undefined {
    return this.unsavedEnds.get(sessionId)?.code;
  }

  /** R3: the store takes writes again: the turn ends it refused are written now. */
  writeUnsavedEnds(): void {
    for (const sessionId of [...this.unsavedEnds.keys()]) {
      if (this.closed) return;
      let unsaved: UnsavedEnd | undefined;
      try {
        this.deps.log.batch(() => {
          unsaved = this.appendUnsavedEnd(sessionId);
        });
      } catch (error) {
        if (unsaved) this.unsavedEnds.set(sessionId, unsaved);
        if (!isStorageFailure(error))
          console.error(`session ${sessionId}: could not record the end of the turn:`, error);
      }
    }
  }

  /**
   * Appends the session's unsaved turn end, if any, and returns it. Taken off the list first:
   * the write's own news that the store is back comes here again. A turn that another server
   * closed meanwhile (S2) is not ended twice.
   */
  private appendUnsavedEnd(sessionId: string): UnsavedEnd | undefined {
    const unsaved = this.unsavedEnds.get(sessionId);
    if (!unsaved) return undefined;
    this.unsavedEnds.delete(sessionId);
    this.deps.log.catchUp(sessionId);
    if (!this.projections.get(sessionId).hasOpenTurn()) return undefined;
    for (const entry of unsaved.entries) this.append(sessionId, entry);
    return unsaved;
  }

  /** Resolves once the session has no running turn. */
  async idle(sessionId: string): Promise<void> {
    for (let turn = this.running.get(sessionId); turn; turn = this.running.get(sessionId)) {
      await turn.done;
    }
  }

  /**
   * Stops every turn at once; from here on nothing more is written, so pending interactions
   * stay pending and open turns resume on the next start (A7, R6).
   */
  async close(): Promise<void> {
    // The store may be back before its probe noticed; otherwise the next start resumes them.
    this.writeUnsavedEnds();
    this.closed = true;
    if (this.takeOverTimer) clearInterval(this.takeOverTimer);
    this.deps.turnLocks?.close?.();
    this.unsubscribeElsewhere();
    this.modes.dispose();
    this.projections.dispose();
    this.deps.interactions.close();
    for (const turn of this.running.values()) turn.controller.abort("the server is shutting down");
  }

  private append(sessionId: string, entry: SessionEntry): StoredEntry {
    if (this.closed) throw new ManagerClosed("the session manager is closed");
    if (this.lockLost.has(sessionId)) throw new ManagerClosed("the turn lock was lost");
    return this.deps.log.append(sessionId, entry);
  }

  private launch(sessionId: string, pendingCalls: ToolCallToRun[]): void {
    const controller = new AbortController();
    const turn: RunningTurn = { controller, done: Promise.resolve() };
    this.running.set(sessionId, turn);
    this.lockLost.delete(sessionId);
    turn.done = this.runTurn(sessionId, turn, pendingCalls);
  }

  private async runTurn(sessionId: string, turn: RunningTurn, pendingCalls: ToolCallToRun[]) {
    const signal = turn.controller.signal;
    const calls: ToolCallToRun[] = [...pendingCalls];
    try {
      let modelCalls = 0;
      let continuation = false;
      for (;;) {
        if (calls.length > 0) {
          const ended = await this.runCalls(sessionId, calls, signal);
          calls.length = 0;
          if (ended) break;
        }
        if (signal.aborted) throw new TurnAborted();
        if (modelCalls >= (this.deps.maxModelCalls ?? MAX_MODEL_CALLS_PER_TURN)) {
          this.fail(sessionId, {
            code: "turn.tooManyModelCalls",
            params: { calls: String(modelCalls) },
          });
          return;
        }
        modelCalls++;
        const { response, seenSeq } = await this.callModel(sessionId, signal, continuation);
        continuation = response.stopReason === "max_tokens";
        if (response.text)
          this.append(sessionId, { kind: "assistant.message", text: response.text });
        const projection = this.projections.get(sessionId);
        const replyCallIds = new Set<string>();
        for (const call of response.toolCalls) {
          const callId = projection.unusedCallId(call.id, replyCallIds);
          replyCallIds.add(callId);
          this.append(sessionId, {
            kind: "tool.call",
            callId,
            name: call.name,
            input: call.input ?? {},
          });
          const toRun: ToolCallToRun = { callId, name: call.name, input: call.input ?? {} };
          if (call.inputError !== undefined) toRun.inputError = call.inputError;
          calls.push(toRun);
        }
        // S2: a prompt given on another server meanwhile joins this turn, not a later one.
        this.deps.log.catchUp(sessionId);
        const userSpoke = this.projections.get(sessionId).userSpokeSince(seenSeq);
        if (modelCalls === 1 && calls.length === 0 && response.text.trim() === "") {
          // The model answered the person's message with nothing: say so rather than show nothing.
          this.notify(sessionId, "info", { code: "reply.empty", params: {} });
        }
        if (calls.length === 0 && response.stopReason === "max_tokens") {
          // A reply cut at the output limit must not pass for a finished one.
          this.notify(sessionId, "info", { code: "reply.outputLimit", params: {} });
        }
        if (calls.length === 0 && !userSpoke) break;
      }
      this.append(sessionId, { kind: "turn.ended", reason: "completed" });
    } catch (error) {
      this.endAfterError(sessionId, signal, error);
    } finally {
      // Synchronously with the last entry, so a prompt arriving next starts a new turn.
      if (this.running.get(sessionId) === turn) {
        this.running.delete(sessionId);
        if (!this.closed) this.deps.turnLocks?.release(sessionId);
      }
    }
  }

  private async callModel(sessionId: string, signal: AbortSignal, continuation: boolean) {
    const session = this.deps.log.requireSession(sessionId);
    const mode = this.modes.get(sessionId);
    const tools = this.deps.tools.specs();
    this.remindMode(sessionId, mode);
    this.remindTodos(sessionId, tools, continuation);
    const projection = this.projections.withConversation(sessionId);
    const seenSeq = projection.seq();
    const provider = this.deps.providerFor(session.model);
    const system = (this.deps.systemPrompt ?? defaultSystemPrompt)({
      workspace: this.deps.workspace,
      mode,
      toolNames: tools.map((tool) => tool.name),
    });
    const { messages } = await compactWeighed(
      projection.weighedConversation(),
      {
        maxChars: this.deps.compactAboveChars ?? DEFAULT_COMPACT_ABOVE_CHARS,
        planFile: () => readPlanFileExcerpt(this.deps.workspace, sessionId),
      },
      projection.summaries,
    );
    const onDelta = this.deps.onDelta;
    let streamed = "";
    const onText = (text: string) => {
      streamed += text;
      onDelta?.(sessionId, text);
    };
    try {
      const response = await untilAborted(
        provider.complete({
          system,
          messages,
          tools,
          signal,
          ...(onDelta ? { onText } : {}),
          onNotice: (notice) => this.notify(sessionId, "info", notice),
        }),
        signal,
      );
      return { response, seenSeq };
    } catch (error) {
      // A reply that fails or is stopped midway keeps what the person already read.
      if (streamed.trim() !== "") this.keepStreamed(sessionId, streamed);
      throw error;
    }
  }

  private keepStreamed(sessionId: string, text: string): void {
    try {
      this.append(sessionId, { kind: "assistant.message", text });
    } catch {
      // The log refuses writes: the turn's own failure, written next, says so.
    }
  }

  /** P6: the plan-mode reminder (or the one-time exit note) due now, stored as a synthetic message. */
  private remindMode(sessionId: string, mode: ExecutionMode): void {
    const reminder = this.projections.get(sessionId).modeReminder(mode);
    if (reminder) this.append(sessionId, reminder);
  }

  /** What the plan tools may do to their session (P4, P8, P9). */
  private sessionControls(sessionId: string): ToolContextExtras {
    return {
      setPlanMode: (enabled) => {
        if (this.closed) throw new ManagerClosed("the session manager is closed");
        return this.modes.setPlan(sessionId, enabled);
      },
      setExecutionMode: (mode) => {
        if (this.closed) throw new ManagerClosed("the session manager is closed");
        return this.modes.change(sessionId, mode);
      },
      sayToUser: (text) => {
        this.append(sessionId, { kind: "assistant.message", text });
      },
      // The prompt path: a running turn takes it as the user's next message.
      steerUserMessage: (text) => {
        this.prompt(sessionId, text);
      },
      planRevision: (toolCallId) => this.projections.get(sessionId).planRevision(toolCallId),
      recordPlanApproved: (plan, path, fresh) => {
        this.append(sessionId, {
          kind: "plan.approved",
          plan,
          ...(path === undefined ? {} : { path }),
          ...(fresh ? { fresh: true } : {}),
        });
      },
    };
  }

  private remindTodos(sessionId: string, tools: { name: string }[], continuation: boolean): void {
    const text = this.deps.todoReminder?.({
      sessionId,
      counts: this.projections.get(sessionId).assistantMessageCounts(),
      toolNames: tools.map((tool) => tool.name),
      continuation,
    });
    if (text) this.append(sessionId, { kind: "user.message", text, synthetic: true });
  }

  /**
   * Runs the calls in order, recording each result; returns true when one ends the turn.
   * Q7: calls that wait for the user and follow each other start together, so their requests
   * queue up and the user sees how many wait; their results are still recorded in call order.
   */
  private async runCalls(sessionId: string, calls: ToolCallToRun[], signal: AbortSignal) {
    const mode = this.modes.reader(sessionId);
    const ahead = new AbortController();
    const stopAhead = () => ahead.abort(signal.reason);
    signal.addEventListener("abort", stopAhead, { once: true });
    const started = new Map<number, Promise<ToolResult>>();
    const start = (index: number) => {
      const running = this.executor.run(sessionId, calls[index]!, mode, ahead.signal);
      // Awaited in order below; one withdrawn before its turn comes must not go unhandled.
      running.catch(() => {});
      started.set(index, running);
    };
    try {
      for (const [index, call] of calls.entries()) {
        if (signal.aborted) throw new TurnAborted();
        if (!started.has(index)) {
          start(index);
          for (let next = index + 1; this.asksUser(call) && this.asksUser(calls[next]); next++) {
            start(next);
          }
        }
        const result = await started.get(index)!;
        this.recordResult(sessionId, call, result);
        if (signal.aborted) throw new TurnAborted();
        if (result.endTurn) {
          const later = [...started].filter(([other]) => other > index);
          if (later.length > 0) {
            ahead.abort("the turn ended first");
            await Promise.allSettled(later.map(([, running]) => running));
          }
          this.recordSkipped(
            sessionId,
            calls.slice(index + 1),
            "it was not run because the turn ended first",
          );
          return true;
        }
      }
      return false;
    } finally {
      signal.removeEventListener("abort", stopAhead);
    }
  }

  private asksUser(call: ToolCallToRun | undefined): boolean {
    return call !== undefined && this.deps.tools.get(call.name)?.requiresUserInteraction === true;
  }

  private endAfterError(sessionId: string, signal: AbortSignal, error: unknown) {
    if (this.closed || error instanceof ManagerClosed) return;
    const end = this.endAfter(sessionId, signal, error);
    try {
      this.deps.log.batch(() => {
        for (const entry of end.entries) this.append(sessionId, entry);
      });
    } catch (writeError) {
      const problem = storageProblemOf(writeError);
      if (!problem) {
        console.error(`session ${sessionId}: could not record the end of the turn:`, writeError);
        return;
      }
      // R3: the store refuses the end too. The pages hear now that the turn stopped, and why;
      // the end is written once the store takes writes (its health logs the outage).
      const code = end.code.startsWith("storage.") ? end.code : `storage.${problem}`;
      this.unsavedEnds.set(sessionId, { entries: end.entries, code });
      this.deps.onTurnStopped?.(sessionId, code);
    }
  }

  /** The entries that end a turn stopped by `error`, and the notice's code ("" for a cancel). */
  private endAfter(sessionId: string, signal: AbortSignal, error: unknown): UnsavedEnd {
    if (signal.aborted || error instanceof TurnAborted) {
      const unfinished = this.projections.get(sessionId).danglingCalls();
      return {
        entries: [
          ...skippedResults(unfinished, "the turn was cancelled"),
          { kind: "turn.ended", reason: "cancelled" },
        ],
        code: "",
      };
    }
    const notice = describeFailure(error);
    return { entries: failureEntries(notice), code: notice.code };
  }

  /** W2: stored by code, so the page words it in its language, with the English beside it. */
  private notify(sessionId: string, level: "info" | "error", notice: TurnNotice): void {
    this.append(sessionId, {
      kind: "notice",
      level,
      text: englishTurnNotice(notice),
      ...coded(notice),
    });
  }

  private fail(sessionId: string, notice: TurnNotice): void {
    for (const entry of failureEntries(notice)) this.append(sessionId, entry);
  }

  private recordSkipped(sessionId: string, calls: OpenCall[], why: string): void {
    for (const entry of skippedResults(calls, why)) this.append(sessionId, entry);
  }
}

/** A failed turn's notice and its end, in the same words. */
function failureEntries(notice: TurnNotice): SessionEntry[] {
  const message = englishTurnNotice(notice);
  return [
    { kind: "notice", level: "error", text: message, ...coded(notice) },
    { kind: "turn.ended", reason: "error", message, ...coded(notice) },
  ];
}

/** Results for calls that never ran, so the model sees each call answered. */
function skippedResults(calls: OpenCall[], why: string): SessionEntry[] {
  return calls.map((call) => ({
    kind: "tool.result",
    callId: call.callId,
    name: call.name,
    isError: true,
    output: `${call.name} produced no result: ${why}.`,
  }));
}

/** S2: no model spoke after the prompt at `promptSeq` (its turn ended as it was given). */
function unheard(entries: readonly StoredEntry[], promptSeq: number | undefined): boolean {
  if (promptSeq === undefined) return false;
  return !entries.some(
    ({ seq, entry }) =>
      seq > promptSeq && (entry.kind === "assistant.message" || entry.kind === "tool.call"),
  );
}

/** The seq of the session's last `turn.ended`, or 0. */
function lastTurnEnd(entries: readonly StoredEntry[]): number {
  for (let index = entries.length - 1; index >= 0; index--) {
    if (entries[index]!.entry.kind === "turn.ended") return entries[index]!.seq;
  }
  return 0;
}

/** An entry's code and values, without an empty set of values. */
function coded({ code, params }: TurnNotice): { code: string; params?: Record<string, string> } {
  return Object.keys(params).length === 0 ? { code } : { code, params };
}

function describeFailure(error: unknown): TurnNotice {
  if (error instanceof ModelError) return error.notice;
  // R3: the store's failure in fixed words; the driver's (paths, hosts) stay in the server's log.
  const problem = storageProblemOf(error);
  if (problem) return { code: `storage.${problem}`, params: {} };
  const reason = error instanceof Error ? error.message : String(error);
  return { code: "turn.failed", params: { reason } };
}

/** Why an agent's call ended without a result, in words the agent can act on. */
function callFailure(error: unknown): string {
  if (isStorageFailure(error)) {
    return "plangate could not save the call, because its session database refuses writes right now; try again later";
  }
  return error instanceof Error ? error.message : String(error);
}
