import { z } from "zod/mini";
import {
  answerHasChoice,
  optionLabelsLookDistinct,
  questionNotBlank,
  questionReadsAsWritten,
  uniqueOptionLabels,
  uniqueQuestionTexts,
} from "./rules.ts";

/**
 * The longest plan (a question's detail, an edited plan): a 300 KB plan file (issue 15's goal).
 * An answer carrying an edited plan this long in 3-byte UTF-8 (CJK) is 900 KB, so it still fits
 * a client frame (MAX_FRAME_BYTES, R2) with room for its comments.
 */
export const MAX_PLAN_CHARS = 300_000;

/** Q1: one choice the asker offers. */
export const QuestionOption = z.strictObject({
  label: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(120),
      z.describe("What the user picks; short, unique in the question."),
    ),
  description: z.optional(
    z.string().check(z.maxLength(1000), z.describe("What choosing this option means or implies.")),
  ),
});
export type QuestionOption = z.infer<typeof QuestionOption>;

/** I1: the presentation intent. A tagged union so new kinds can be added; unknown kinds are rejected. */
export const PlanReviewIntent = z.strictObject({
  kind: z.literal("plan-review"),
  approve: z.string().check(z.minLength(1)),
});
export type PlanReviewIntent = z.infer<typeof PlanReviewIntent>;

export const AskUserQuestionIntent = z.discriminatedUnion("kind", [PlanReviewIntent]);
export type AskUserQuestionIntent = z.infer<typeof AskUserQuestionIntent>;

/**
 * Q1: the fields of one question, as a model writes them. The one source of the question
 * contract: the wire item adds the intent, and the model-facing and MCP tool inputs are these.
 */
const QuestionFields = z.strictObject({
  question: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(2000),
      z.describe("The full question, ending with a question mark."),
    ),
  header: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(16),
      z.describe("A very short topic label shown as a chip."),
    ),
  options: z
    .array(QuestionOption)
    .check(z.minLength(2), z.maxLength(4), z.describe("Two to four distinct choices.")),
  multiSelect: z.boolean().check(z.describe("True when the user may pick more than one option.")),
  detail: z.optional(
    z
      .string()
      .check(
        z.maxLength(MAX_PLAN_CHARS),
        z.describe("Optional markdown context shown with the question."),
      ),
  ),
});

const uniqueLabels = z.refine<{ options: QuestionOption[] }>(uniqueOptionLabels, {
  message: "option labels must be unique within a question",
  path: ["options"],
});

const uniqueQuestions = z.refine<{ question: string }[]>(uniqueQuestionTexts, {
  message: "question texts must be unique within a batch",
});

/** Q1: one question of a batch, as it travels: a server-side asker may add an intent (I3). */
export const AskUserQuestionItem = z
  .extend(QuestionFields, { intent: z.optional(AskUserQuestionIntent) })
  .check(uniqueLabels);
export type AskUserQuestionItem = z.infer<typeof AskUserQuestionItem>;

export const AskUserQuestionItems = z
  .array(AskUserQuestionItem)
  .check(z.minLength(1), z.maxLength(4), uniqueQuestions);

const notBlank = /* @__PURE__ */ z.refine<ModelQuestionItem>(questionNotBlank, {
  message: "the question, its header and its option labels must not be blank",
});

const labelsLookDistinct = /* @__PURE__ */ z.refine<ModelQuestionItem>(optionLabelsLookDistinct, {
  message:
    "option labels must look different: labels that differ only in invisible characters or spacing are the same label",
  path: ["options"],
});

const readsAsWritten = /* @__PURE__ */ z.refine<ModelQuestionItem>(questionReadsAsWritten, {
  message:
    "the question, header and options must not contain bidirectional embedding, override or isolate characters (U+202A–U+202E, U+2066–U+2069): they change how the text reads",
});

/**
 * Q1/Q2: the batch a model writes: the same questions, never an intent (I3), and none blank
 * (stored questions stay as they were written, so only new input is held to that).
 */
export const ModelQuestionItems = z
  // Pure, so a bundle that never uses it drops it (the page: vite.config.ts treeshake).
  .array(
    /* @__PURE__ */ QuestionFields.check(
      uniqueLabels,
      notBlank,
      labelsLookDistinct,
      readsAsWritten,
    ),
  )
  .check(z.minLength(1), z.maxLength(4), uniqueQuestions, z.describe("One to four questions."));
export type ModelQuestionItem = z.infer<typeof QuestionFields>;

/**
 * V5: how an approved plan is carried out. `default` is the seed's behaviour: back to the
 * permission mode that was under plan mode. `fresh` also compacts the conversation.
 */
export const PlanApproveOption = z.enum(["default", "edit", "build", "fresh"]);
export type PlanApproveOption = z.infer<typeof PlanApproveOption>;

/**
 * V1: where a comment sits in the plan: the heading path above the block, the block's place
 * under that heading, its text and the quoted part. Never DOM offsets, so it survives
 * re-rendering and a reload; line numbers are the plan file's, counted from 1.
 */
export const PlanCommentAnchor = z.strictObject({
  headingPath: z.array(z.string().check(z.maxLength(300))).check(z.maxLength(6)),
  blockIndex: z.number().check(z.int(), z.minimum(0)),
  blockText: z.string().check(z.maxLength(4000)),
  quote: z.string().check(z.minLength(1), z.maxLength(2000)),
  lines: z.strictObject({
    start: z.number().check(z.int(), z.minimum(1)),
    end: z.number().check(z.int(), z.minimum(1)),
  }),
});
export type PlanCommentAnchor = z.infer<typeof PlanCommentAnchor>;

/** V1: one comment on the plan, as drafted and as sent. */
export const PlanComment = z.strictObject({
  id: z.string().check(z.minLength(1), z.maxLength(64)),
  anchor: PlanCommentAnchor,
  text: z.string().check(z.trim(), z.minLength(1), z.maxLength(4000)),
});
export type PlanComment = z.infer<typeof PlanComment>;

/** Enough for any review; bounded so a frame stays small (R12). */
export const MAX_PLAN_COMMENTS = 50;
export const PlanComments = z.array(PlanComment).check(z.maxLength(MAX_PLAN_COMMENTS));

/** V5 + V8: what a plan-review answer adds to its label; absent on answers from older clients. */
export const PlanReviewAnswer = z.strictObject({
  option: z.optional(PlanApproveOption),
  /** V6: the plan as the person edited it before approving; it is what gets approved. */
  editedPlan: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_PLAN_CHARS))),
  /** V2: the person's comments, sent with Refuse ("request changes") or an approval (V4). */
  comments: z.optional(PlanComments),
  planHash: z.optional(
    z
      .string()
      .check(
        z.maxLength(128),
        z.describe("the content hash of the revision the person saw (PlanRevision.contentHash)"),
      ),
  ),
  /**
   * V7: the answer's `other` is a question about the plan, not a verdict: it carries no label,
   * and the agent answers it and submits the plan again.
   */
  ask: z.optional(z.literal(true)),
});
export type PlanReviewAnswer = z.infer<typeof PlanReviewAnswer>;

/**
 * One answer: the offered labels picked, and/or a custom ("Other") text.
 * Q3: a blank answer (nothing picked, no text) is rejected.
 */
export const QuestionAnswer = z
  .strictObject({
    labels: z.array(z.string().check(z.minLength(1))),
    other: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(4000))),
    /** Only on a plan review's answer. */
    review: z.optional(PlanReviewAnswer),
  })
  .check(
    z.refine(answerHasChoice, {
      message: "an answer needs a picked option or custom text",
    }),
  );
export type QuestionAnswer = z.infer<typeof QuestionAnswer>;

/** Answers keyed by question text. `{}` is legal: nothing was answered (Q3). */
export const QuestionAnswers = z.record(z.string(), QuestionAnswer);
export type QuestionAnswers = z.infer<typeof QuestionAnswers>;

/** X3: a draft is the work in progress on a question batch, never an answer. */
export const QuestionDraft = z.strictObject({
  page: z.number().check(z.int(), z.minimum(0), z.maximum(3)),
  picks: z.record(z.string(), z.array(z.string())),
  other: z.record(z.string(), z.string().check(z.maxLength(4000))),
  feedback: z.optional(z.string().check(z.maxLength(20_000))),
  /** V1: a plan review's comments, kept like its feedback. */
  comments: z.optional(PlanComments),
});
export type QuestionDraft = z.infer<typeof QuestionDraft>;
