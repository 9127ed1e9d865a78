import type {
  CountdownState,
  InteractionRequest,
  PermissionDecision,
  QuestionAnswers,
  QuestionDraft,
  ReceiptCode,
} from "../../protocol/index.ts";

/** A pending interaction as the store derives it from session entries. */
export interface PendingInteraction {
  request: InteractionRequest;
  countdown: CountdownState;
  draft?: QuestionDraft;
}

export type ReceiptView = { ok: true } | { ok: false; code?: ReceiptCode; message?: string };

/** What the composer area passes to the QuestionComposer for the head of the queue. */
export interface QuestionComposerProps {
  pending: PendingInteraction;
  /** Q7: how many interactions wait behind the head. */
  waitingBehind: number;
  /** serverNow − Date.now() at welcome; countdowns are drawn in server time. */
  clockOffsetMs: number;
  /** The latest receipt for this interaction, if any (I6). */
  receipt?: ReceiptView;
  onAnswer(answers: QuestionAnswers): void;
  onCancel(): void;
  onTouch(): void;
  onDraft(draft: QuestionDraft): void;
  onDecide(decision: PermissionDecision): void;
  /** I7: after Chat about it, focus returns to the message composer. */
  focusComposer(): void;
  /**
   * X3: the interaction was settled by another tab or device while this tab had a draft or an
   * answer in flight; the composer shows "Answered elsewhere" instead of the card.
   */
  resolvedElsewhere?: boolean;
  /** W12: with a next card waiting behind the notice, shows it at once. */
  onShowNext?(): void;
}
