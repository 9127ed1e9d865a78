import type { WebSocket } from "ws";
import {
  type AnsweredBy,
  type AutoContinueTimings,
  type ClientFrame,
  type ErrorCode,
  type ModelInfo,
  PROTOCOL_VERSION,
  type ServerFrame,
  type SessionEntry,
  type StorageHealth,
  type StoredEntry,
} from "../../protocol/index.ts";
import type { Clock } from "../clock.ts";
import type { InboxFeed } from "../inbox/inboxFeed.ts";
import { SECOND_LATE_ANSWER } from "../interactions/lateAnswers.ts";
import type { InteractionRegistry, Receipt } from "../interactions/port.ts";
import type { SessionManager } from "../sessions/sessionManager.ts";
import { AlreadyLateAnsweredError, SessionNotFoundError, StorageError } from "../store/errors.ts";
import type { SessionLog } from "../store/sessionLog.ts";
import type { SettingsStore } from "../store/settingsStore.ts";
import { isStorageFailure } from "../store/storageHealth.ts";
import { Client, ClientSet } from "./clients.ts";
import { InboxChangeVariants } from "./inboxChange.ts";
import {
  HISTORY_LIMITS,
  historyPage,
  type LogWindow,
  latestWindow,
  SNAPSHOT_LIMITS,
} from "./logWindow.ts";
import { readClientFrame } from "./readFrame.ts";
import { wireEntry } from "./wireEntry.ts";

export interface RouterDeps {
  log: SessionLog;
  sessions: SessionManager;
  interactions: InteractionRegistry;
  settings: SettingsStore;
  clock: Clock;
  /** The models a session may use; the first is not special. */
  listModels: () => ModelInfo[] | Promise<ModelInfo[]>;
  /** A2: told to the page so its settings describe the real timings. */
  timings: AutoContinueTimings;
  /** M1/M3: resolves what the user picked to the canonical ref to store, or says why not. */
  chooseModel?: (
    sessionId: string,
    ref: string,
  ) => Promise<{ ok: true; ref: string } | { ok: false; message: string }>;
  /** U1: every pending interaction across sessions, for the inbox. */
  inbox?: InboxFeed;
  /** R3/W3: whether the store takes writes; the pages are told when that changes. */
  storage?: {
    readonly current: StorageHealth;
    subscribe(listener: (health: StorageHealth) => void): () => void;
  };
}

/** Entries that change nothing in a session summary do not trigger `session.upserted`. */
const summaryNeutral = new Set<SessionEntry["kind"]>([
  "interaction.draft",
  "interaction.countdown",
  "composer.draft",
]);

class FrameError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The WebSocket side of the protocol: validates each frame (R2), routes it to the session
 * manager or the interaction registry, and fans stored entries out to the clients that follow
 * their session. It never lets client input throw out of a handler.
 */
export class WsRouter {
  private readonly clients = new ClientSet();
  private readonly dirtySummaries = new Set<string>();
  private readonly unsubscribe: () => void;
  private readonly unsubscribeInbox: () => void;
  private readonly unsubscribeStorage: () => void;
  /** Hellos that could not be answered because the store failed; answered when it is back. */
  private readonly waitingHellos = new Map<Client, Extract<ClientFrame, { type: "hello" }>>();
  /** W1: the session each person's New session made last ("" is the workspace's owner). */
  private readonly lastCreatedBy = new Map<string, string>();

  constructor(private readonly deps: RouterDeps) {
    const unsubscribeEntries = deps.log.subscribe((sessionId, stored) =>
      this.onEntry(sessionId, stored),
    );
    // S2: the same frames a rename or delete made here sends.
    const unsubscribeChanges = deps.log.subscribeSessionChanges((sessionId, change) => {
      if (change === "renamed") this.upsertNow(sessionId);
      else this.removed(sessionId);
    });
    this.unsubscribe = () => {
      unsubscribeEntries();
      unsubscribeChanges();
    };
    this.unsubscribeInbox =
      deps.inbox?.onChange((frame) => {
        if (frame.type !== "inbox.changed") return this.clients.toAll(frame);
        const variants = new InboxChangeVariants(frame);
        this.clients.toEach((client) => variants.for(client.subscriptions));
      }) ?? (() => {});
    this.unsubscribeStorage =
      deps.storage?.subscribe((health) => {
        this.clients.toAll({ type: "storage.changed", health });
        if (health.state === "ok") this.answerWaitingHellos();
      }) ?? (() => {});
  }

  /** R3: the session's turn stopped and the store refused its end; its followers hear it now. */
  turnStopped(sessionId: string, code: string): void {
    this.clients.toSubscribers(sessionId, { type: "turn.stopped", sessionId, code });
  }

  /** R3: behind a snapshot or replay, which still shows the turn open. */
  private tellStopped(client: Client, sessionId: string): void {
    const code = this.deps.sessions.unsavedEnd(sessionId);
    if (code !== undefined) client.send({ type: "turn.stopped", sessionId, code });
  }

  /** Streamed text of a running turn goes only to the session's followers. */
  sendDelta(sessionId: string, text: string): void {
    this.clients.toSubscribers(sessionId, { type: "assistant.delta", sessionId, text });
  }

  /** `person`: the named token's owner (S3), recorded on every answer given through it. */
  accept(socket: WebSocket, person?: string): void {
    const client = new Client(socket, person);
    this.clients.add(client);
    socket.on("message", (data, isBinary) => {
      if (isBinary) {
        client.send(errorFrame("BAD_FRAME", "Frames must be JSON text, not binary."));
        return;
      }
      // One frame at a time per client, in order, even when a handler awaits.
      // R12: each frame waits for a turn of the event loop, so a client sending a burst of
      // costly frames cannot hold up what other clients sent meanwhile.
      client.queue = client.queue
        .then(nextTurnOfEventLoop)
        .then(() => this.handle(client, data.toString()))
        // R2: a frame the server failed on is still answered, never left without a reply.
        .catch((error: unknown) => client.send(toErrorFrame(error)));
    });
    const gone = () => {
      this.clients.remove(client);
      this.waitingHellos.delete(client);
    };
    socket.on("close", gone);
    socket.on("error", gone);
  }

  /** S3: the person's token was revoked; 4401 tells the page to ask for access again. */
  closePerson(person: string): void {
    this.clients.closeWhere((client) => client.person === person, 4401, "access revoked");
  }

  close(): void {
    this.unsubscribe();
    this.unsubscribeInbox();
    this.unsubscribeStorage();
    this.waitingHellos.clear();
    this.clients.closeAll(1001, "server shutting down");
  }

  private async handle(client: Client, text: string): Promise<void> {
    const reading = readClientFrame(text);
    if (!reading.ok) {
      client.send(errorFrame(reading.code, reading.message, reading.ref));
      return;
    }
    const { frame } = reading;
    try {
      if (frame.type !== "hello" && !client.greeted) {
        throw new FrameError("NOT_HELLO", "Say hello first: the first frame must be `hello`.");
      }
      await this.dispatch(client, frame);
    } catch (error) {
      client.send(toErrorFrame(error, frame.type));
    }
  }

  private async dispatch(client: Client, frame: ClientFrame): Promise<void> {
    const { sessions, interactions } = this.deps;
    switch (frame.type) {
      case "hello":
        return this.hello(client, frame);
      case "session.create": {
        // Reuse is decided here, not in the page: two tabs pressing at once each know only
        // their own list, while frames are handled one at a time, so the second finds the first's.
        // Per person (S3): another's empty session may be the one they are about to type in.
        const creator = client.person ?? "";
        const { session, reused } = sessions.createOrReuseEmpty(
          { title: frame.title, mode: frame.mode },
          this.lastCreatedBy.get(creator),
        );
        this.lastCreatedBy.set(creator, session.id);
        if (!reused) this.upsertNow(session.id);
        this.subscribe(client, session.id, 0, true);
        return;
      }
      case "session.open":
        this.deps.log.requireSession(frame.sessionId);
        this.subscribe(client, frame.sessionId, frame.lastSeq ?? 0);
        return;
      case "session.history":
        return this.history(client, frame);
      case "prompt":
        sessions.prompt(frame.sessionId, frame.text);
        // W14: what was sent is no longer a draft.
        sessions.saveComposerDraft(frame.sessionId, "");
        return;
      case "composer.draft":
        sessions.saveComposerDraft(frame.sessionId, frame.text);
        return;
      case "session.rename":
        sessions.rename(frame.sessionId, frame.title);
        this.upsertNow(frame.sessionId);
        return;
      case "session.delete":
        await sessions.delete(frame.sessionId);
        this.removed(frame.sessionId);
        return;
      case "turn.cancel":
        sessions.cancelTurn(frame.sessionId);
        return;
      case "mode.set":
        sessions.setMode(frame.sessionId, frame.mode);
        return;
      case "model.set": {
        if (this.deps.chooseModel) {
          this.deps.log.requireSession(frame.sessionId);
          const choice = await this.deps.chooseModel(frame.sessionId, frame.model);
          if (!choice.ok) throw new FrameError("BAD_MODEL", choice.message);
          sessions.setModel(frame.sessionId, choice.ref);
          return;
        }
        const models = await this.deps.listModels();
        const model = models.find((m) => m.ref === frame.model);
        if (!model) throw new FrameError("BAD_MODEL", `There is no model "${frame.model}".`);
        if (model.disabled) {
          throw new FrameError("BAD_MODEL", `${model.ref} cannot be used: ${model.disabled}.`);
        }
        sessions.setModel(frame.sessionId, model.ref);
        return;
      }
      case "settings.update": {
        const settings = this.deps.settings.update(frame.patch);
        this.clients.toAll({ type: "settings.changed", settings });
        interactions.settingsChanged(settings);
        return;
      }
      case "interaction.answer":
        return receipt(
          client,
          frame.interactionId,
          interactions.answer(frame.interactionId, frame.answers, answeredBy(client)),
        );
      case "interaction.cancel":
        return receipt(
          client,
          frame.interactionId,
          interactions.cancel(frame.interactionId, answeredBy(client)),
        );
      case "interaction.decide":
        return receipt(
          client,
          frame.interactionId,
          interactions.decide(frame.interactionId, frame.decision, answeredBy(client)),
        );
      case "interaction.touch":
        return receipt(client, frame.interactionId, interactions.touch(frame.interactionId));
      case "interaction.draft":
        return receipt(
          client,
          frame.interactionId,
          interactions.saveDraft(frame.interactionId, frame.draft),
        );
      case "interaction.lateAnswer": {
        const late = interactions.acceptLateAnswer(frame.interactionId, frame.answers);
        if (!late.ok) return receipt(client, frame.interactionId, late);
        // X2: the choice reaches the agent as a follow-up message; it starts a turn when idle.
        try {
          sessions.prompt(late.sessionId, late.text, {
            synthetic: true,
            lateAnswerFor: frame.interactionId,
          });
        } catch (error) {
          // S2: another server wrote its late answer first; this one stays refused here too.
          if (error instanceof AlreadyLateAnsweredError) {
            return receipt(client, frame.interactionId, SECOND_LATE_ANSWER);
          }
          if (!(error instanceof StorageError) && !isStorageFailure(error)) throw error;
          interactions.releaseLateAnswer(frame.interactionId);
          const message = "the late answer could not be recorded";
          return receipt(client, frame.interactionId, {
            ok: false,
            code: "STORAGE_FAILED",
            message,
          });
        }
        return receipt(client, frame.interactionId, { ok: true });
      }
    }
  }

  private async hello(client: Client, frame: Extract<ClientFrame, { type: "hello" }>) {
    if (frame.protocol !== PROTOCOL_VERSION) {
      throw new FrameError(
        "PROTOCOL_MISMATCH",
        `This server speaks protocol ${PROTOCOL_VERSION}, the page speaks ${frame.protocol}. Reload the page.`,
      );
    }
    const models = await this.deps.listModels();
    let welcome: ServerFrame;
    try {
      welcome = {
        type: "welcome",
        protocol: PROTOCOL_VERSION,
        serverNow: this.deps.clock.now(),
        settings: this.deps.settings.get(),
        sessions: this.deps.sessions.summaries(),
        models,
        timings: this.deps.timings,
      };
    } catch (error) {
      const storage = this.deps.storage;
      if (!storage || !isStorageFailure(error)) throw error;
      // W3: the store cannot even be read (PostgreSQL away): the page learns why it waits, and
      // gets its welcome when the store is back.
      this.waitingHellos.set(client, frame);
      client.send({ type: "storage.changed", health: storage.current });
      throw error;
    }
    this.waitingHellos.delete(client);
    client.greeted = true;
    client.device = frame.device;
    client.batches = frame.batches === true;
    client.send(welcome);
    if (this.deps.inbox) client.send({ type: "inbox.snapshot", items: this.deps.inbox.snapshot() });
    const health = this.deps.storage?.current;
    if (health && health.state !== "ok") client.send({ type: "storage.changed", health });
    for (const point of frame.resume ?? []) {
      const session = this.deps.log.getSession(point.sessionId);
      if (!session) {
        client.send(
          errorFrame(
            "SESSION_NOT_FOUND",
            `No session ${point.sessionId} to resume.`,
            point.sessionId,
          ),
        );
        continue;
      }
      if (point.lastSeq === 0 || !isShortGap(session.lastSeq, point.lastSeq)) {
        // W3: nothing yet (a page opening on a session) or a gap wider than a snapshot: the
        // snapshot, right behind welcome, not a replay entry by entry.
        this.subscribe(client, point.sessionId, point.lastSeq);
        continue;
      }
      client.subscriptions.add(point.sessionId);
      for (const stored of this.deps.log.entriesAfter(point.sessionId, point.lastSeq)) {
        client.send(eventFrame(point.sessionId, stored));
      }
      this.tellStopped(client, point.sessionId);
    }
  }

  private answerWaitingHellos(): void {
    for (const [client, frame] of this.waitingHellos) {
      this.waitingHellos.delete(client);
      client.queue = client.queue
        .then(() => (client.greeted ? undefined : this.hello(client, frame)))
        .catch((error: unknown) => client.send(toErrorFrame(error, "hello")));
    }
  }

  /**
   * Reading the log and subscribing happen in one tick, so no entry falls between them. A
   * client that has the session up to `afterSeq` gets exactly what follows (W3); one that has
   * nothing, or is too far behind, gets the latest part of the log and what is still in effect.
   */
  private subscribe(client: Client, sessionId: string, afterSeq: number, created = false): void {
    const session = this.deps.log.requireSession(sessionId);
    client.subscriptions.add(sessionId);
    const window: LogWindow =
      afterSeq > 0 && isShortGap(session.lastSeq, afterSeq)
        ? { entries: this.deps.log.entriesAfter(sessionId, afterSeq), context: [] }
        : latestWindow(this.deps.log, sessionId, session.lastSeq);
    client.send({
      type: "snapshot",
      session: this.deps.sessions.summary(session),
      ...windowFields(window),
      ...(created ? { created: true as const } : {}),
    });
    this.tellStopped(client, sessionId);
  }

  private history(client: Client, frame: Extract<ClientFrame, { type: "session.history" }>): void {
    this.deps.log.requireSession(frame.sessionId);
    const maxEntries = Math.min(
      frame.limit ?? HISTORY_LIMITS.maxEntries,
      HISTORY_LIMITS.maxEntries,
    );
    const page = historyPage(this.deps.log, frame.sessionId, frame.beforeSeq, {
      ...HISTORY_LIMITS,
      maxEntries,
    });
    client.send({
      type: "history",
      sessionId: frame.sessionId,
      beforeSeq: frame.beforeSeq,
      ...windowFields(page),
    });
  }

  private onEntry(sessionId: string, stored: StoredEntry): void {
    this.clients.toSubscribers(sessionId, eventFrame(sessionId, stored));
    if (summaryNeutral.has(stored.entry.kind)) return;
    // Deferred a microtask: the registry counts a new interaction right after its entry is stored.
    if (this.dirtySummaries.size === 0) queueMicrotask(() => this.flushSummaries());
    this.dirtySummaries.add(sessionId);
  }

  private flushSummaries(): void {
    const ids = [...this.dirtySummaries];
    this.dirtySummaries.clear();
    for (const id of ids) this.upsertNow(id);
  }

  private removed(sessionId: string): void {
    this.dirtySummaries.delete(sessionId);
    this.clients.forgetSession(sessionId);
    this.clients.toAll({ type: "session.removed", sessionId });
  }

  private upsertNow(sessionId: string): void {
    this.dirtySummaries.delete(sessionId);
    const session = this.deps.log.getSession(sessionId);
    if (session)
      this.clients.toAll({
        type: "session.upserted",
        session: this.deps.sessions.summary(session),
      });
  }
}

/** U4/S3: who answers through this socket: the device its tab named, the person its token names. */
function answeredBy(client: Client): AnsweredBy | undefined {
  const person = client.person === undefined ? {} : { person: client.person };
  if (client.device) return { deviceId: client.device.id, label: client.device.label, ...person };
  return client.person === undefined ? undefined : { deviceId: "", label: "", ...person };
}

function isShortGap(lastSeq: number, afterSeq: number): boolean {
  return lastSeq - afterSeq <= SNAPSHOT_LIMITS.maxEntries;
}

function windowFields(window: LogWindow) {
  return {
    entries: window.entries.map(wireEntry),
    ...(window.context.length > 0 ? { context: window.context.map(wireEntry) } : {}),
    ...(window.earlier ? { earlier: window.earlier } : {}),
  };
}

function nextTurnOfEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function eventFrame(sessionId: string, stored: StoredEntry): ServerFrame {
  const { seq, at, entry } = wireEntry(stored);
  return { type: "event", sessionId, seq, at, entry };
}

/** R12: an error frame stays small whatever the frame it answers held. */
const MAX_ERROR_MESSAGE_CHARS = 2_000;
const MAX_ERROR_REF_CHARS = 100;

function capped(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function errorFrame(code: ErrorCode, message: string, ref?: string): ServerFrame {
  const text = capped(message, MAX_ERROR_MESSAGE_CHARS);
  return ref === undefined
    ? { type: "error", code, message: text }
    : { type: "error", code, message: text, ref: capped(ref, MAX_ERROR_REF_CHARS) };
}

function receipt(client: Client, interactionId: string, result: Receipt): void {
  client.send(
    result.ok
      ? { type: "receipt", interactionId, ok: true }
      : { type: "receipt", interactionId, ok: false, code: result.code, message: result.message },
  );
}

function toErrorFrame(error: unknown, ref?: string): ServerFrame {
  if (error instanceof FrameError) return errorFrame(error.code, error.message, ref);
  if (error instanceof SessionNotFoundError)
    return errorFrame("SESSION_NOT_FOUND", error.message, ref);
  // R3: the driver's words (addresses, paths) stay in the server's log (StorageHealth); the
  // page words the code in its own language.
  if (error instanceof StorageError || isStorageFailure(error)) {
    // A store that is fine refused this one write (a constraint): not an outage, so said here.
    if (!isStorageFailure(error) && error instanceof Error)
      console.error(`plangate: a ${ref ?? "websocket"} frame was not stored: ${error.message}`);
    return errorFrame(
      "STORAGE_FAILED",
      "The server's storage failed, so nothing of this request was stored. The server's log has the details.",
      ref,
    );
  }
  console.error(`error handling a ${ref ?? "websocket"} frame:`, error);
  return errorFrame("INTERNAL", "The server could not handle that frame.", ref);
}
