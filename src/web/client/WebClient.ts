import type { StoreApi } from "zustand/vanilla";
import type {
  ClientFrame,
  ErrorCode,
  ModeName,
  PermissionDecision,
  QuestionAnswers,
  QuestionDraft,
  ServerFrame,
  SettingsPatch,
} from "../../protocol/index.ts";
import { connectionLost, flushOutbox, outboxKey, recordFrame } from "../store/outbox.ts";
import type { AppState } from "../store/store.ts";
import type { ConnectionStatus } from "../store/types.ts";

export interface FrameSender {
  send(frame: ClientFrame): boolean;
}

/** Entries per "Show earlier" page: about one more render window of the transcript. */
const HISTORY_PAGE = 300;

/**
 * Error codes after which retrying the same connection cannot help: the link ends, and the
 * connection's own banner words them (ConnectionStatus.tsx), not the error banner.
 */
export const FATAL_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "UNAUTHORIZED",
  "PROTOCOL_MISMATCH",
]);

/**
 * What the UI can ask of the server, and the way frames reach the store. Components call
 * these methods; they never build frames or touch the socket themselves.
 */
export class WebClient {
  private serial = 0;

  constructor(
    private readonly store: StoreApi<AppState>,
    private readonly sender: FrameSender,
    private readonly options: {
      now?: () => number;
      onFatal?: (reason: string, code: ErrorCode) => void;
    } = {},
  ) {}

  /** `receivedAt` defaults to now; a welcome gets the middle of its round trip (A6). */
  receive(frame: ServerFrame, receivedAt?: number): void {
    const now = receivedAt ?? this.options.now?.() ?? Date.now();
    const outgoing = this.store.getState().applyFrame(frame, now);
    for (const next of outgoing) this.sender.send(next);
    // W7: hello's resume is handled by now; what was held goes out behind it.
    if (frame.type === "welcome") {
      this.store.setState((state) => ({
        outbox: flushOutbox(state.outbox, (held) => this.sender.send(held)),
      }));
    }
    if (frame.type === "error" && FATAL_ERRORS.has(frame.code)) {
      this.options.onFatal?.(frame.message, frame.code);
    }
  }

  send(frame: ClientFrame): boolean {
    return this.sender.send(frame);
  }

  /** Every status change of the socket; a lost connection may have swallowed sent frames. */
  connectionChanged(status: ConnectionStatus): void {
    const state = this.store.getState();
    state.setConnectionStatus(status);
    if (status.status !== "open") this.store.setState({ outbox: connectionLost(state.outbox) });
  }

  /**
   * W7: a frame the person made. It goes out now, or is held until the connection is back;
   * either way it is taken, so this returns true. Frames with receipts stay in the outbox until
   * theirs arrives.
   */
  private deliver(frame: ClientFrame): true {
    const online = this.store.getState().connection.status === "open";
    const sent = online && this.sender.send(frame);
    this.serial += 1;
    const key = outboxKey(frame, this.serial);
    this.store.setState((state) => ({ outbox: recordFrame(state.outbox, key, frame, sent) }));
    return true;
  }

  /** Selects a session and asks for what this client lacks of it. */
  openSession(sessionId: string): void {
    const state = this.store.getState();
    state.selectSession(sessionId);
    const view = state.views[sessionId];
    this.send(
      view
        ? { type: "session.open", sessionId, lastSeq: view.lastSeq }
        : { type: "session.open", sessionId },
    );
  }

  /** Asks for the page of entries before the oldest one this client holds. */
  loadEarlier(sessionId: string): boolean {
    const state = this.store.getState();
    const view = state.views[sessionId];
    if (!view?.earlier || view.loadingEarlier) return false;
    const sent = this.send({
      type: "session.history",
      sessionId,
      beforeSeq: view.earlier.beforeSeq,
      limit: HISTORY_PAGE,
    });
    if (sent) state.markLoadingEarlier(sessionId);
    return sent;
  }

  createSession(): boolean {
    const sent = this.send({ type: "session.create" });
    if (sent) this.store.getState().expectCreatedSession();
    return sent;
  }

  prompt(sessionId: string, text: string): boolean {
    return this.deliver({ type: "prompt", sessionId, text });
  }

  /** W14: the message box's draft, kept by the server so a reload or another tab finds it. */
  saveComposerDraft(sessionId: string, text: string): boolean {
    return this.deliver({ type: "composer.draft", sessionId, text });
  }

  /** W15: every tab hears the new title as a `session.upserted`. */
  renameSession(sessionId: string, title: string): boolean {
    return this.send({ type: "session.rename", sessionId, title });
  }

  /** W15: the server confirms with `session.removed` to every tab, this one included. */
  deleteSession(sessionId: string): boolean {
    return this.send({ type: "session.delete", sessionId });
  }

  setMode(sessionId: string, mode: ModeName): boolean {
    return this.send({ type: "mode.set", sessionId, mode });
  }

  cancelTurn(sessionId: string): boolean {
    return this.send({ type: "turn.cancel", sessionId });
  }

  updateSettings(patch: SettingsPatch): boolean {
    return this.send({ type: "settings.update", patch });
  }

  answer(interactionId: string, answers: QuestionAnswers): boolean {
    return this.deliver({ type: "interaction.answer", interactionId, answers });
  }

  lateAnswer(interactionId: string, answers: QuestionAnswers): boolean {
    return this.deliver({ type: "interaction.lateAnswer", interactionId, answers });
  }

  cancelInteraction(interactionId: string): boolean {
    return this.deliver({ type: "interaction.cancel", interactionId });
  }

  touch(interactionId: string): boolean {
    return this.deliver({ type: "interaction.touch", interactionId });
  }

  saveDraft(interactionId: string, draft: QuestionDraft): boolean {
    return this.deliver({ type: "interaction.draft", interactionId, draft });
  }

  decide(interactionId: string, decision: PermissionDecision): boolean {
    return this.deliver({ type: "interaction.decide", interactionId, decision });
  }
}
