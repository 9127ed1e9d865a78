import { useId } from "react";
import type { AskUserQuestionItem, QuestionAnswers } from "../../protocol/index.ts";
import { useTranslation } from "../i18n/useTranslation.tsx";
import "./review.css";

function answerText(answers: QuestionAnswers, question: string): string | null {
  const answer = answers[question];
  if (answer === undefined) return null;
  return [...answer.labels, ...(answer.other ? [answer.other] : [])].join(", ");
}

/**
 * W10: every answer of the batch at a glance, the unanswered ones marked, each one changeable.
 * Its own chunk (GenericQuestionFlow), fetched after the first screen (issue 15).
 */
export function ReviewPage({
  questions,
  answers,
  disabled,
  onChange,
}: {
  questions: readonly AskUserQuestionItem[];
  answers: QuestionAnswers;
  disabled: boolean;
  onChange(index: number): void;
}) {
  const { t } = useTranslation("question");
  const headingId = useId();
  const gaps = questions.filter((item) => answers[item.question] === undefined).length;
  return (
    <section
      className="qflow-review qcard-scroll"
      aria-labelledby={headingId}
      data-testid="question-review"
    >
      <h3 id={headingId} className="qflow-review-heading">
        {t("review.heading")}
      </h3>
      <ol className="qflow-review-list">
        {questions.map((item, index) => {
          const text = answerText(answers, item.question);
          return (
            <li
              key={item.question}
              className="qflow-review-item"
              data-answered={text !== null}
              data-testid="question-review-item"
            >
              <p className="qflow-review-question">{item.question}</p>
              <p className="qflow-review-answer">{text ?? t("review.unanswered")}</p>
              <button
                type="button"
                className="qbtn"
                aria-label={t("review.changeLabel", { question: item.question })}
                disabled={disabled}
                onClick={() => onChange(index)}
              >
                {t("review.change")}
              </button>
            </li>
          );
        })}
      </ol>
      {gaps > 0 && (
        <p className="qflow-review-gaps" role="status">
          {t("review.gaps", { count: gaps })}
        </p>
      )}
    </section>
  );
}
