import { z } from "zod/mini";
import { AnsweredBy } from "./device.ts";
import { AskUserQuestionItem, PlanComments, QuestionAnswers } from "./question.ts";

/** X4: which revision of the session's plan a review shows, and what the one before it got. */
export const PlanRevision = z.strictObject({
  number: z.number().check(z.int(), z.minimum(1)),
  /** V8: names this revision's plan text; an approval echoes it back. */
  contentHash: z.optional(z.string()),
  previous: z.optional(
    z.strictObject({
      plan: z.string(),
      /** Refusal feedback and messages the user wrote while revision n−1 was current. */
      feedback: z.array(z.string()).check(z.maxLength(20)),
      /** V3: the comments revision n−1 was refused with, to place on this one. */
      comments: z.optional(PlanComments),
    }),
  ),
});
export type PlanRevision = z.infer<typeof PlanRevision>;

/** A question batch waiting for the user (AskUserQuestion, or ExitPlanMode's review per I3). */
export const QuestionRequest = z.strictObject({
  kind: z.literal("question"),
  interactionId: z.string(),
  sessionId: z.string(),
  toolName: z.string(),
  toolCallId: z.string(),
  questions: z.array(AskUserQuestionItem),
  createdAt: z.number(),
  planRevision: z.optional(PlanRevision),
});
export type QuestionRequest = z.infer<typeof QuestionRequest>;

/** A tool approval in build mode: the card names the tool and what it touches. */
export const PermissionRequest = z.strictObject({
  kind: z.literal("permission"),
  interactionId: z.string(),
  sessionId: z.string(),
  toolName: z.string(),
  toolCallId: z.string(),
  summary: z.string().check(z.describe("the command or path the tool acts on")),
  input: z.unknown(),
  createdAt: z.number(),
});
export type PermissionRequest = z.infer<typeof PermissionRequest>;

export const InteractionRequest = z.discriminatedUnion("kind", [
  QuestionRequest,
  PermissionRequest,
]);
export type InteractionRequest = z.infer<typeof InteractionRequest>;

export const PermissionDecision = z.enum(["deny", "allow_once", "allow_always"]);
export type PermissionDecision = z.infer<typeof PermissionDecision>;

/**
 * How an interaction ended. `auto` marks the A3 expiry, kept distinct from a user
 * approval that carried no answers. `aborted` means no user is coming (Q8).
 */
export const InteractionOutcome = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("answered"),
    answers: QuestionAnswers,
    auto: z.boolean(),
    by: z.optional(AnsweredBy),
  }),
  z.strictObject({
    type: z.literal("decided"),
    decision: PermissionDecision,
    by: z.optional(AnsweredBy),
  }),
  z.strictObject({ type: z.literal("cancelled"), by: z.optional(AnsweredBy) }),
  z.strictObject({ type: z.literal("aborted"), reason: z.string() }),
]);
export type InteractionOutcome = z.infer<typeof InteractionOutcome>;

/**
 * A2/A6: countdown state with absolute server times (ms since epoch), so every
 * client draws the same countdown. `paused` is final (A4/A5).
 */
export const CountdownState = z.discriminatedUnion("phase", [
  z.strictObject({ phase: z.literal("ineligible") }),
  z.strictObject({
    phase: z.literal("counting"),
    startedAt: z.number(),
    visibleAt: z.number(),
    deadlineAt: z.number(),
  }),
  z.strictObject({ phase: z.literal("paused"), pausedAt: z.number() }),
]);
export type CountdownState = z.infer<typeof CountdownState>;
