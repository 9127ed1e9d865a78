import { vi } from "vitest";
import type {
  AskUserQuestionItem,
  PermissionRequest,
  QuestionRequest,
} from "../../protocol/index.ts";
import type { PlanReviewPanelProps } from "./PlanReviewPanel.tsx";
import { planReviewOf } from "./planReviewOf.ts";
import type { PendingInteraction, QuestionComposerProps } from "./types.ts";

export const PLAN_MARKDOWN = [
  "## Steps",
  "",
  "1. Add the migration",
  "2. Backfill",
  "",
  "| File | Change |",
  "| --- | --- |",
  "| db.ts | new column |",
].join("\n");

export const reviewItem: AskUserQuestionItem = {
  question: "Shall I carry out this plan?",
  header: "Plan",
  options: [
    { label: "Go ahead", description: "Leave plan mode and start editing" },
    { label: "Not yet", description: "Stay in plan mode" },
  ],
  multiSelect: false,
  detail: PLAN_MARKDOWN,
  intent: { kind: "plan-review", approve: "Go ahead" },
};

export const databaseItem: AskUserQuestionItem = {
  question: "Which database should the service use?",
  header: "Database",
  options: [
    { label: "Postgres (Recommended)", description: "Robust, already in the stack" },
    { label: "SQLite", description: "One file, no server" },
    { label: "MySQL" },
  ],
  multiSelect: false,
};

export const featuresItem: AskUserQuestionItem = {
  question: "Which features should ship first?",
  header: "Scope",
  options: [
    { label: "Search", description: "Full-text search" },
    { label: "Export", description: "CSV export" },
    { label: "Sharing" },
  ],
  multiSelect: true,
};

export const namingItem: AskUserQuestionItem = {
  question: "How should the new module be named?",
  header: "Naming",
  options: [{ label: "billing" }, { label: "payments" }],
  multiSelect: false,
  detail: "The module holds **invoices** and refunds.",
};

export function questionRequest(...questions: AskUserQuestionItem[]): QuestionRequest {
  return {
    kind: "question",
    interactionId: "int-1",
    sessionId: "sess-1",
    toolName: "AskUserQuestion",
    toolCallId: "call-1",
    questions,
    createdAt: 1_700_000_000_000,
  };
}

export const writeRequest: PermissionRequest = {
  kind: "permission",
  interactionId: "int-2",
  sessionId: "sess-1",
  toolName: "Write",
  toolCallId: "call-2",
  summary: "src/app/config.ts",
  input: { path: "src/app/config.ts", content: "export {}" },
  createdAt: 1_700_000_000_000,
};

export function pendingOf(
  request: PendingInteraction["request"],
  extra: Partial<PendingInteraction> = {},
): PendingInteraction {
  return { request, countdown: { phase: "ineligible" }, ...extra };
}

type Callbacks = Pick<
  QuestionComposerProps,
  "onAnswer" | "onCancel" | "onTouch" | "onDraft" | "onDecide" | "focusComposer"
>;

/** Every callback of the composer, as fresh mocks. */
export function composerCallbacks(): Callbacks {
  return {
    onAnswer: vi.fn(),
    onCancel: vi.fn(),
    onTouch: vi.fn(),
    onDraft: vi.fn(),
    onDecide: vi.fn(),
    focusComposer: vi.fn(),
  };
}

export function composerProps(
  pending: PendingInteraction,
  callbacks: Callbacks,
  extra: Partial<QuestionComposerProps> = {},
): QuestionComposerProps {
  return { pending, waitingBehind: 0, clockOffsetMs: 0, ...callbacks, ...extra };
}

/** The plan card's props for a plan-review request, with mock callbacks. */
export function planPanelProps(
  request: QuestionRequest,
  extra: Partial<PlanReviewPanelProps> = {},
): PlanReviewPanelProps {
  const review = planReviewOf(request);
  if (review === null) throw new Error("fixture is not a plan review");
  return {
    review,
    onAnswer: vi.fn(),
    onCancel: vi.fn(),
    onDraft: vi.fn(),
    focusComposer: vi.fn(),
    ...extra,
  };
}
