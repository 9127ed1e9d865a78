import { useMemo } from "react";
import type { QuestionRequest } from "../../protocol/index.ts";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { AnsweredElsewhere } from "./AnsweredElsewhere.tsx";
import { CountdownChip } from "./CountdownChip.tsx";
import { GenericQuestionFlow } from "./GenericQuestionFlow.tsx";
import { LazyPlanReviewPanel } from "./LazyPlanReviewPanel.tsx";
import { PermissionCard } from "./PermissionCard.tsx";
import { planReviewOf } from "./planReviewOf.ts";
import type { QuestionComposerProps } from "./types.ts";
import "./questions.css";

/** I8: the one composer entry for pending interactions; it picks the presentation itself. */
export function QuestionComposer(props: QuestionComposerProps) {
  const { pending, waitingBehind, resolvedElsewhere } = props;
  const { t } = useTranslation("question");
  const { request } = pending;

  return (
    <div className="qcomposer">
      {waitingBehind > 0 && !resolvedElsewhere && (
        <p className="qcomposer-waiting">{t("queue.waiting", { count: waitingBehind })}</p>
      )}
      {resolvedElsewhere ? (
        <AnsweredElsewhere onShowNext={props.onShowNext} focusComposer={props.focusComposer} />
      ) : request.kind === "permission" ? (
        <PermissionCard
          key={request.interactionId}
          request={request}
          receipt={props.receipt}
          onDecide={props.onDecide}
        />
      ) : (
        <QuestionSurface key={request.interactionId} {...props} request={request} />
      )}
    </div>
  );
}

function QuestionSurface({
  request,
  pending,
  clockOffsetMs,
  receipt,
  onAnswer,
  onCancel,
  onTouch,
  onDraft,
  focusComposer,
}: QuestionComposerProps & { request: QuestionRequest }) {
  const review = useMemo(() => planReviewOf(request), [request]);
  if (review !== null) {
    return (
      <LazyPlanReviewPanel
        review={review}
        toolName={request.toolName}
        draft={pending.draft}
        receipt={receipt}
        onAnswer={onAnswer}
        onCancel={onCancel}
        onDraft={onDraft}
        focusComposer={focusComposer}
      />
    );
  }
  return (
    <GenericQuestionFlow
      request={request}
      draft={pending.draft}
      receipt={receipt}
      aside={<CountdownChip countdown={pending.countdown} clockOffsetMs={clockOffsetMs} />}
      onSubmit={onAnswer}
      onCancel={onCancel}
      onTouch={onTouch}
      onDraft={onDraft}
    />
  );
}
