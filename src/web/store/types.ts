import type {
  AutoContinueTimings,
  EarlierHistory,
  ErrorCode,
  ExecutionMode,
  InboxItem,
  InteractionOutcome,
  InteractionRequest,
  ModelInfo,
  SessionSummary,
  Settings,
  StorageHealth,
  StoredEntry,
  TodoItem,
} from "../../protocol/index.ts";
import type { PendingInteraction, ReceiptView } from "../questions/types.ts";
import type { Outbox } from "./outbox.ts";

export type { PendingInteraction, ReceiptView };

export type ConnectionStatus =
  | { status: "connecting" }
  | { status: "open"; clockOffsetMs: number }
  | { status: "reconnecting"; attempt: number; retryAt: number }
  | { status: "closed"; reason: string; code?: ErrorCode }
  /** W8: the server no longer accepts this tab's token (it was rotated); retrying cannot help. */
  | { status: "refused" };

export interface ResolvedInteraction {
  outcome: InteractionOutcome;
  at: number;
}

/** One session as this client has folded its log so far. */
export interface SessionView {
  sessionId: string;
  /** The part of the log this client holds, without gaps, ending at `lastSeq`. */
  entries: StoredEntry[];
  /** Older entries the server still has; "Show earlier" fetches them. */
  earlier: EarlierHistory | null;
  /** A `session.history` request is on its way. */
  loadingEarlier: boolean;
  lastSeq: number;
  mode: ExecutionMode | null;
  model: string | null;
  todos: TodoItem[];
  /** Q7: first in, first out; the head is the one shown. */
  pending: PendingInteraction[];
  /** Every request seen, so a resolved line can still quote its questions. */
  requests: Record<string, InteractionRequest>;
  resolved: Record<string, ResolvedInteraction>;
  /** Assistant text of the turn in progress; replaced by the final message entry. */
  streaming: string;
  running: boolean;
  /**
   * R3: the turn stopped but the store has not taken its end yet: the notice code saying why
   * (`turn.stopped`); null once an entry ends or starts a turn.
   */
  stopped: string | null;
  /** A gap was seen and a session.open is on its way; further gaps wait for it. */
  resyncing: boolean;
  /** W14: the message box's draft as the server keeps it; "" when none. */
  composerDraft: string;
}

export interface ServerError {
  code: ErrorCode;
  message: string;
  ref?: string;
}

export type Page = "session" | "settings" | "inbox";

export interface ConnectionSlice {
  connection: ConnectionStatus;
  /** Last known serverNow − Date.now(); kept across reconnects so countdowns keep drawing. */
  clockOffsetMs: number;
  lastError: ServerError | null;
  /** R3/W3: whether the server can store changes, as it last said; "ok" from each welcome on. */
  storage: StorageHealth;
  /** W7: frames made while offline, and sent ones whose receipt has not come yet. */
  outbox: Outbox;
  /** A2: the server's auto-continue timings, from welcome; null before the first one. */
  timings: AutoContinueTimings | null;
  setConnectionStatus(status: ConnectionStatus): void;
  dismissError(): void;
}

export interface SessionsSlice {
  sessions: Record<string, SessionSummary>;
  models: ModelInfo[];
  selectedSessionId: string | null;
  /** A session.create is on its way; the next unknown snapshot is that session. */
  awaitingCreatedSession: boolean;
  selectSession(sessionId: string | null): void;
  expectCreatedSession(): void;
}

export interface TranscriptsSlice {
  views: Record<string, SessionView>;
  receipts: Record<string, ReceiptView>;
  /** Marks that a page of earlier entries was asked for, so the next click waits for it. */
  markLoadingEarlier(sessionId: string): void;
}

export interface SettingsSlice {
  settings: Settings;
}

/** U1: every pending interaction of every session, keyed by interaction id. */
export interface InboxSlice {
  inbox: Record<string, InboxItem>;
}

export interface UiSlice {
  page: Page;
  showPage(page: Page): void;
}

/** Everything the reducers read and write: the store without its actions. */
export interface WebData {
  connection: ConnectionStatus;
  clockOffsetMs: number;
  lastError: ServerError | null;
  storage: StorageHealth;
  outbox: Outbox;
  timings: AutoContinueTimings | null;
  sessions: Record<string, SessionSummary>;
  models: ModelInfo[];
  selectedSessionId: string | null;
  awaitingCreatedSession: boolean;
  views: Record<string, SessionView>;
  receipts: Record<string, ReceiptView>;
  settings: Settings;
  page: Page;
  inbox: Record<string, InboxItem>;
}
