import { z } from "zod/mini";
import { DeviceInfo } from "./device.ts";
import { SessionEntry, SessionSummary, StoredEntry } from "./entries.ts";
import { ErrorCode, ReceiptCode } from "./errors.ts";
import { InboxChangedFrame, InboxSnapshotFrame } from "./inbox.ts";
import { PermissionDecision } from "./interactions.ts";
import { ModeName } from "./modes.ts";
import { QuestionAnswers, QuestionDraft } from "./question.ts";
import { Settings, SettingsPatch } from "./settings.ts";
import { StorageHealth } from "./storage.ts";

/**
 * 2: snapshots hold the log's tail plus the older entries still in effect; `session.history` pages the rest.
 * 3: welcome carries the auto-continue timings; sessions can be renamed and deleted (W15); the
 * message box keeps its draft in the log (W14).
 * 4: an MCP agent's `tool.call` entry may say it was made as a task (B3, tasks/list): a page of 3,
 * whose entry schema refuses that field, is told to reload instead of showing it unreadable.
 */
export const PROTOCOL_VERSION = 4;
/** The most entries one `session.history` page may ask for. */
export const MAX_HISTORY_PAGE = 1000;
/** Frames above this many bytes are refused (R2); the server closes with 1009. */
export const MAX_FRAME_BYTES = 1024 * 1024;

/** W8: answers 204 to a page whose token is good and 401 or 403 to one whose token is not. */
export const ACCESS_CHECK_PATH = "/access";

/** The longest message-box draft the server keeps (W14): as long as a prompt may be. */
export const MAX_PROMPT_CHARS = 100_000;

const sessionId = z.string().check(z.minLength(1), z.maxLength(200));
const interactionId = z.string().check(z.minLength(1), z.maxLength(200));

export const ResumePoint = z.strictObject({
  sessionId,
  lastSeq: z.number().check(z.int(), z.minimum(0)),
});
export type ResumePoint = z.infer<typeof ResumePoint>;

export const ClientFrame = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("hello"),
    protocol: z.number(),
    resume: z.optional(z.array(ResumePoint).check(z.maxLength(100))),
    /** U4: which device this tab runs on; answers given through this socket record it. */
    device: z.optional(DeviceInfo),
    /**
     * The page takes `batch` messages: the frames the server produces in one turn of its event
     * loop then arrive as one message. Without it every frame is a message of its own.
     */
    batches: z.optional(z.literal(true)),
  }),
  z.strictObject({
    type: z.literal("session.create"),
    title: z.optional(z.string().check(z.maxLength(200))),
    mode: z.optional(ModeName),
  }),
  z.strictObject({
    type: z.literal("session.open"),
    sessionId,
    lastSeq: z.optional(z.number().check(z.int(), z.minimum(0))),
  }),
  /** Entries just before `beforeSeq`, newest page first: what "Show earlier" asks for. */
  z.strictObject({
    type: z.literal("session.history"),
    sessionId,
    beforeSeq: z.number().check(z.int(), z.positive()),
    limit: z.optional(z.number().check(z.int(), z.positive(), z.maximum(MAX_HISTORY_PAGE))),
  }),
  z.strictObject({
    type: z.literal("prompt"),
    sessionId,
    text: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_PROMPT_CHARS)),
  }),
  /** W15: a new title from the session list. */
  z.strictObject({
    type: z.literal("session.rename"),
    sessionId,
    title: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  }),
  /** W15: removes the session with its log, todos, drafts, interactions and plan file. */
  z.strictObject({ type: z.literal("session.delete"), sessionId }),
  /** W14: what the message box holds, saved like a question draft (X3); "" clears it. */
  z.strictObject({
    type: z.literal("composer.draft"),
    sessionId,
    text: z.string().check(z.maxLength(MAX_PROMPT_CHARS)),
  }),
  z.strictObject({
    type: z.literal("interaction.answer"),
    interactionId,
    answers: QuestionAnswers,
  }),
  z.strictObject({ type: z.literal("interaction.cancel"), interactionId }),
  z.strictObject({ type: z.literal("interaction.touch"), interactionId }),
  z.strictObject({ type: z.literal("interaction.draft"), interactionId, draft: QuestionDraft }),
  z.strictObject({
    type: z.literal("interaction.decide"),
    interactionId,
    decision: PermissionDecision,
  }),
  /** X2: an answer given after the question auto-continued. */
  z.strictObject({
    type: z.literal("interaction.lateAnswer"),
    interactionId,
    answers: QuestionAnswers,
  }),
  z.strictObject({ type: z.literal("mode.set"), sessionId, mode: ModeName }),
  z.strictObject({
    type: z.literal("model.set"),
    sessionId,
    model: z.string().check(z.minLength(1)),
  }),
  z.strictObject({ type: z.literal("settings.update"), patch: SettingsPatch }),
  z.strictObject({ type: z.literal("turn.cancel"), sessionId }),
]);
export type ClientFrame = z.infer<typeof ClientFrame>;
export type ClientFrameType = ClientFrame["type"];

export const ModelInfo = z.strictObject({
  ref: z.string(),
  provider: z.string(),
  label: z.string(),
  disabled: z.optional(z.string()),
});
export type ModelInfo = z.infer<typeof ModelInfo>;

/** Entries of the log that a frame left out and `session.history` can fetch: seq 1 up to `beforeSeq` − 1. */
export const EarlierHistory = z.strictObject({
  beforeSeq: z.number().check(z.int(), z.positive()),
  count: z.number().check(z.int(), z.positive()),
});
export type EarlierHistory = z.infer<typeof EarlierHistory>;

/** A2: how long an unanswered question waits silently, and when it continues on its own. */
export const AutoContinueTimings = z.strictObject({
  graceMs: z.number().check(z.int(), z.minimum(0)),
  deadlineMs: z.number().check(z.int(), z.minimum(0)),
});
export type AutoContinueTimings = z.infer<typeof AutoContinueTimings>;

export const ServerFrame = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("welcome"),
    protocol: z.number(),
    serverNow: z.number(),
    settings: Settings,
    sessions: z.array(SessionSummary),
    models: z.array(ModelInfo),
    timings: AutoContinueTimings,
  }),
  z.strictObject({
    type: z.literal("event"),
    sessionId,
    seq: z.number(),
    at: z.number(),
    entry: SessionEntry,
  }),
  z.strictObject({
    type: z.literal("snapshot"),
    session: SessionSummary,
    entries: z
      .array(StoredEntry)
      .check(
        z.describe(
          "A run of the log without gaps that ends at the session's last entry: everything after the client's lastSeq, or the latest part of the log.",
        ),
      ),
    context: z.optional(
      z
        .array(StoredEntry)
        .check(
          z.describe(
            "Entries before `entries` that still shape the session's state (pending interactions, latest mode, model, todos, turn, requests that `entries` resolve). Folded into state, not drawn in the transcript.",
          ),
        ),
    ),
    earlier: z.optional(EarlierHistory),
    created: z.optional(
      z
        .literal(true)
        .check(
          z.describe(
            "This snapshot answers this client's `session.create`: the page opens it, a new session or an empty one handed back.",
          ),
        ),
    ),
  }),
  /** The answer to `session.history`: the entries just before `beforeSeq`, in order. */
  z.strictObject({
    type: z.literal("history"),
    sessionId,
    beforeSeq: z.number(),
    entries: z.array(StoredEntry),
    context: z.optional(
      z
        .array(StoredEntry)
        .check(z.describe("Requests that this page's resolutions answer, from before it.")),
    ),
    earlier: z.optional(EarlierHistory),
  }),
  z.strictObject({ type: z.literal("session.upserted"), session: SessionSummary }),
  /** W15: the session was deleted; every tab drops it. */
  z.strictObject({ type: z.literal("session.removed"), sessionId }),
  z.strictObject({ type: z.literal("settings.changed"), settings: Settings }),
  /** Streamed assistant text for the turn in progress; the final text arrives as an entry. */
  z.strictObject({ type: z.literal("assistant.delta"), sessionId, text: z.string() }),
  z.strictObject({
    type: z.literal("receipt"),
    interactionId,
    ok: z.boolean(),
    code: z.optional(ReceiptCode),
    message: z.optional(z.string()),
  }),
  z.strictObject({
    type: z.literal("error"),
    code: ErrorCode,
    message: z.string(),
    ref: z.optional(z.string()),
  }),
  /**
   * R3/W3: the server's storage started failing or works again. Sent to every page when it
   * changes, and right after `welcome` while it is failing (a welcome means "ok" until then).
   */
  z.strictObject({ type: z.literal("storage.changed"), health: StorageHealth }),
  /**
   * R3: the session's turn stopped, but the store refused its end too: no `turn.ended` entry
   * says so yet. Sent to the session's pages when it stops and behind every snapshot or replay
   * of the session until the end is written (once the store takes writes again).
   */
  z.strictObject({
    type: z.literal("turn.stopped"),
    sessionId,
    code: z.string().check(z.describe("The turn notice saying why (storage.<problem>).")),
  }),
  // U1 (inbox)
  InboxSnapshotFrame,
  InboxChangedFrame,
]);
export type ServerFrame = z.infer<typeof ServerFrame>;
export type ServerFrameType = ServerFrame["type"];

/**
 * Frames the server produced in one turn of its event loop, in order, as one WebSocket message,
 * so the page applies them in one task and one render (issue 15: a tool call's entry and the
 * question it asks arrive together). Sent only to a client whose hello set `batches`; the page
 * checks each frame on its own, so one bad frame costs only itself (R2).
 */
export const ServerBatch = z.strictObject({
  type: z.literal("batch"),
  frames: z.array(ServerFrame).check(z.minLength(2)),
});
export type ServerBatch = z.infer<typeof ServerBatch>;
/** What one server WebSocket message holds. */
export type ServerMessage = ServerFrame | ServerBatch;
