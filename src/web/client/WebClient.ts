import type { StoreApi } from "zustand/vanilla";
import type {
  ClientFrame,
  ModeName,
  PermissionDecision,
  QuestionAnswers,
  QuestionDraft,
  ServerFrame,
  SettingsPatch,
} from "../../protocol/index.ts";
import type { AppState } from "../store/store.ts";

export interface FrameSender {
  send(frame: ClientFrame): boolean;
}

/** Entries per "Show earlier" page: about one more render window of the transcript. */
const HISTORY_PAGE = 300;

/** Error codes after which retrying the same connection cannot help. */
const FATAL_ERRORS = new Set(["UNAUTHORIZED", "PROTOCOL_MISMATCH"]);

/**
 * What the UI can ask of the server, and the way frames reach the store. Components call
 * these methods; they never build frames or touch the socket themselves.
 */
export class WebClient {
  constructor(
    private readonly store: StoreApi<AppState>,
    private readonly sender: FrameSender,
    private readonly options: { now?: () => number; onFatal?: (reason: string) => void } = {},
  ) {}

  receive(frame: ServerFrame): void {
    const now = this.options.now?.() ?? Date.now();
    const outgoing = this.store.getState().applyFrame(frame, now);
    for (const next of outgoing) this.sender.send(next);
    if (frame.type === "error" && FATAL_ERRORS.has(frame.code)) {
      this.options.onFatal?.(frame.message);
    }
  }

  send(frame: ClientFrame): boolean {
    return this.sender.send(frame);
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
    return this.send({ type: "prompt", sessionId, text });
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
    return this.send({ type: "interaction.answer", interactionId, answers });
  }

  lateAnswer(interactionId: string, answers: QuestionAnswers): boolean {
    return this.send({ type: "interaction.lateAnswer", interactionId, answers });
  }

  cancelInteraction(interactionId: string): boolean {
    return this.send({ type: "interaction.cancel", interactionId });
  }

  touch(interactionId: string): boolean {
    return this.send({ type: "interaction.touch", interactionId });
  }

  saveDraft(interactionId: string, draft: QuestionDraft): boolean {
    return this.send({ type: "interaction.draft", interactionId, draft });
  }

  decide(interactionId: string, decision: PermissionDecision): boolean {
    return this.send({ type: "interaction.decide", interactionId, decision });
  }
}
