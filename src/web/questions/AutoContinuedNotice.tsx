import { useEffect, useRef, useState } from "react";
import type { QuestionAnswers, QuestionRequest } from "../../protocol/index.ts";
import { COMPOSER_INPUT_ID } from "../composer/Composer.tsx";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { GenericQuestionFlow } from "./GenericQuestionFlow.tsx";
import type { ReceiptView } from "./types.ts";
import "./questions.css";

export interface AutoContinuedNoticeProps {
  request: QuestionRequest;
  /** X2: the shell sends `interaction.lateAnswer` with these answers. */
  onAnswerNow(answers: QuestionAnswers): void;
  /** The receipt of the late answer, if one arrived. */
  receipt?: ReceiptView;
}

type View = "closed" | "answering" | "sent";

/** X2/A3: a question that continued on its own can still be answered, late. */
export function AutoContinuedNotice({ request, onAnswerNow, receipt }: AutoContinuedNoticeProps) {
  const { t } = useTranslation("question");
  const [view, setView] = useState<View>("closed");
  const accepted = view === "sent" && receipt?.ok === true;
  const answerNow = useRef<HTMLButtonElement>(null);
  const opened = useRef(false);
  // W11: the flow leaves with the focus in it; closed, focus goes back to "Answer now", sent, to
  // the message box, where the user goes on.
  useEffect(() => {
    if (view === "answering") opened.current = true;
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (!opened.current || !lost) return;
    if (view === "closed") answerNow.current?.focus();
    else if (accepted) document.getElementById(COMPOSER_INPUT_ID)?.focus();
  }, [view, accepted]);

  return (
    <div className="qlate">
      <p className="qlate-line">
        <span>{t("autoContinued.text")}</span>
        {view === "closed" && (
          <button
            type="button"
            ref={answerNow}
            className="qbtn qbtn--link"
            onClick={() => setView("answering")}
          >
            {t("autoContinued.answerNow")}
          </button>
        )}
      </p>
      {view !== "closed" && !accepted && (
        <GenericQuestionFlow
          request={request}
          receipt={receipt}
          dismissLabel={t("autoContinued.close")}
          onSubmit={(answers) => {
            // An empty late answer tells the agent nothing; just close.
            if (Object.keys(answers).length === 0) {
              setView("closed");
              return;
            }
            setView("sent");
            onAnswerNow(answers);
          }}
          onCancel={() => setView("closed")}
        />
      )}
      {accepted && (
        <p className="qlate-sent" role="status">
          {t("autoContinued.sent")}
        </p>
      )}
    </div>
  );
}
