import { z } from "zod/mini";
import { CountdownState, InteractionOutcome, InteractionRequest } from "./interactions.ts";
import { ExecutionMode } from "./modes.ts";
import { QuestionDraft } from "./question.ts";
import { TodoItem } from "./todos.ts";

/**
 * Everything that happens in a session is one of these, appended to the log with a
 * per-session monotonic `seq` and then broadcast. Client state is a fold over entries.
 */
export const SessionEntry = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("session.created"),
    title: z.string(),
    model: z.string(),
    mode: ExecutionMode,
  }),
  z.strictObject({
    kind: z.literal("user.message"),
    text: z.string(),
    /** A notice the runtime injected (reminders, late answers), not typed by the user. */
    synthetic: z.optional(z.boolean()),
    /** X2: this message carries the late answer to that interaction; kept so a restart refuses a second one. */
    lateAnswerFor: z.optional(z.string()),
    /** Which runtime reminder a synthetic message is (e.g. `plan_mode`), so the next one can be scheduled (P6). */
    reminder: z.optional(z.string().check(z.minLength(1))),
  }),
  z.strictObject({ kind: z.literal("assistant.message"), text: z.string() }),
  z.strictObject({
    kind: z.literal("tool.call"),
    callId: z.string(),
    name: z.string(),
    input: z.unknown(),
    /** B3: an MCP agent made this call as a task, so tasks/list still names it after a restart. */
    task: z.optional(z.literal(true)),
  }),
  z.strictObject({
    kind: z.literal("tool.result"),
    callId: z.string(),
    name: z.string(),
    isError: z.boolean(),
    output: z.string(),
    /** B1: an MCP agent's structured result, kept so its task reads the same after a restart. */
    structured: z.optional(z.record(z.string(), z.unknown())),
  }),
  z.strictObject({ kind: z.literal("turn.started") }),
  z.strictObject({
    kind: z.literal("turn.ended"),
    reason: z.enum(["completed", "cancelled", "error", "waiting"]),
    message: z.optional(z.string()),
    // W2: the notice by code (src/shared/turnNotices.ts) and the values its wording fills in,
    // so the page words it in its own language; the English text stays for old logs and other
    // clients. Written out, not spread from a shared object: that object kept zod in the page's
    // first load (its calls could not be dropped).
    code: z.optional(z.string().check(z.minLength(1))),
    params: z.optional(z.record(z.string(), z.string())),
  }),
  z.strictObject({ kind: z.literal("interaction.requested"), request: InteractionRequest }),
  z.strictObject({
    kind: z.literal("interaction.countdown"),
    interactionId: z.string(),
    countdown: CountdownState,
  }),
  z.strictObject({
    kind: z.literal("interaction.draft"),
    interactionId: z.string(),
    draft: QuestionDraft,
  }),
  z.strictObject({
    kind: z.literal("interaction.resolved"),
    interactionId: z.string(),
    outcome: InteractionOutcome,
  }),
  z.strictObject({ kind: z.literal("session.modeChanged"), mode: ExecutionMode }),
  z.strictObject({ kind: z.literal("session.modelChanged"), model: z.string() }),
  z.strictObject({ kind: z.literal("todos.updated"), todos: z.array(TodoItem) }),
  z.strictObject({
    kind: z.literal("plan.approved"),
    plan: z.string(),
    path: z.optional(z.string()),
    /** V5: approved "with a fresh context": the conversation before it is compacted. */
    fresh: z.optional(z.boolean()),
  }),
  /** W14: the message box's unsent text; the latest one is the draft, "" means none. */
  z.strictObject({ kind: z.literal("composer.draft"), text: z.string() }),
  z.strictObject({
    kind: z.literal("notice"),
    level: z.enum(["info", "error"]),
    text: z.string(),
    code: z.optional(z.string().check(z.minLength(1))),
    params: z.optional(z.record(z.string(), z.string())),
  }),
]);
export type SessionEntry = z.infer<typeof SessionEntry>;
export type SessionEntryKind = SessionEntry["kind"];

/** The interaction an entry adds, changes or resolves; undefined for every other entry. */
export function interactionIdOf(entry: SessionEntry): string | undefined {
  switch (entry.kind) {
    case "interaction.requested":
      return entry.request.interactionId;
    case "interaction.countdown":
    case "interaction.draft":
    case "interaction.resolved":
      return entry.interactionId;
    default:
      return undefined;
  }
}

/** An entry as stored and sent: its place in the log and when it was written (server ms). */
export const StoredEntry = z.strictObject({
  seq: z.number().check(z.int(), z.positive()),
  at: z.number(),
  entry: SessionEntry,
});
export type StoredEntry = z.infer<typeof StoredEntry>;

export const SessionSummary = z.strictObject({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  lastSeq: z.number(),
  model: z.string(),
  mode: ExecutionMode,
  pendingInteractions: z.number(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;
