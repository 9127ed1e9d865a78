import { useMemo } from "react";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { useAppStore } from "../store/store.ts";
import { nextStepOf } from "./nextStep.ts";
import "./questions.css";

const NO_ENTRIES: never[] = [];
const NO_REQUESTS = {};

/** I7: the message box says what the agent does after the plan review just decided. */
export function NextStepHint({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation("question");
  const entries = useAppStore((s) => s.views[sessionId]?.entries ?? NO_ENTRIES);
  const requests = useAppStore((s) => s.views[sessionId]?.requests ?? NO_REQUESTS);
  const step = useMemo(() => nextStepOf(entries, requests), [entries, requests]);
  if (step === null || step.kind === "closed") return null;
  const text =
    step.kind === "refused"
      ? t(step.feedback === undefined ? "nextStep.refused" : "nextStep.refusedWithFeedback")
      : t(`nextStep.${step.kind}`);
  return (
    <p className="qnext-step" data-testid="next-step" role="status">
      {text}
    </p>
  );
}
