import { memo, useState } from "react";
import type { TFunction } from "../i18n/translator.ts";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { Markdown } from "../markdown/Markdown.tsx";
import type { DecidedPlan, PlanDecision } from "../questions/planDecision.ts";

const OUTCOME_KEYS = {
  approved: "planDecided.approved",
  refused: "planDecided.refused",
  chat: "planDecided.chat",
  closed: "planDecided.closed",
} as const;

function outcomeText(decision: PlanDecision, t: TFunction<"question">): string {
  if (decision.kind === "refused" && decision.feedback !== undefined) {
    return t("planDecided.refusedWithFeedback", { feedback: decision.feedback });
  }
  if (decision.kind === "asked") return t("planDecided.askedWith", { question: decision.question });
  if (decision.kind === "approved" && decision.edited) return t("planDecided.approvedEdited");
  return t(OUTCOME_KEYS[decision.kind]);
}

/**
 * W9: a reviewed plan stays readable after any outcome, titled with its revision and outcome.
 * Folded by default: the title says what happened, and the plan's own headings do not break
 * the transcript's outline until the reader opens it.
 */
export const PlanDecidedCard = memo(function PlanDecidedCard({
  decided,
  saved,
}: {
  decided: DecidedPlan;
  saved?: { path?: string };
}) {
  const { t } = useTranslation("question");
  const { decision, revision, plan } = decided;
  // The plan renders when first unfolded: a folded copy of a 200 KB plan would otherwise be
  // parsed and rendered while the next card (often its revision) is trying to paint.
  const [unfolded, setUnfolded] = useState(false);
  const outcome = outcomeText(decision, t);
  const title = t("planDecided.title", { number: revision, outcome });
  return (
    <details
      className={`entry entry-plan entry-plan--${decision.kind}`}
      data-testid="entry-plan-decided"
      data-outcome={decision.kind}
      onToggle={(event) => {
        if (event.currentTarget.open) setUnfolded(true);
      }}
    >
      <summary className="entry-plan-head">
        <span className="entry-plan-title">{title}</span>
        {saved?.path ? (
          <span className="entry-plan-path">{t("planDecided.savedTo", { path: saved.path })}</span>
        ) : null}
      </summary>
      <section
        className="entry-plan-body"
        aria-label={t("planDecided.body", { number: revision })}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so keyboard users can scroll it
        tabIndex={0}
      >
        {unfolded && <Markdown text={plan} />}
      </section>
    </details>
  );
});
