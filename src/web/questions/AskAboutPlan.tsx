import { useId, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { ToolButton } from "./ToolButton.tsx";

export interface AskAboutPlanProps {
  disabled: boolean;
  onAsk(question: string): void;
}

/**
 * V7: a question about the plan that neither approves nor refuses it. Behind a disclosure, with
 * its own send button, so it never competes with the decision row.
 */
export function AskAboutPlan({ disabled, onAsk }: AskAboutPlanProps) {
  const { t } = useTranslation("question");
  const [open, setOpen] = useState(false);
  const [question, setQuestion] = useState("");
  const boxId = useId();
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const focusBox = useRef(false);
  const text = question.trim();

  // Opening it puts the caret in the box, so typing lands there (W11).
  useLayoutEffect(() => {
    if (!open || !focusBox.current) return;
    focusBox.current = false;
    boxRef.current?.focus();
  }, [open]);

  return (
    <div className="qreview-ask">
      <ToolButton
        label={t("planReview.ask")}
        short={open ? undefined : t("planReview.askShort")}
        aria-expanded={open}
        aria-controls={boxId}
        onClick={() => {
          focusBox.current = !open;
          setOpen(!open);
        }}
      />
      <form
        id={boxId}
        hidden={!open}
        className="qreview-ask-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (text !== "") onAsk(text);
        }}
      >
        <label className="qreview-feedback-label">
          <span>{t("planReview.askLabel")}</span>
          <textarea
            ref={boxRef}
            className="qreview-feedback-text"
            rows={2}
            maxLength={4000}
            placeholder={t("planReview.askPlaceholder")}
            value={question}
            disabled={disabled}
            onChange={(event) => setQuestion(event.target.value)}
          />
        </label>
        <button type="submit" className="qbtn" disabled={disabled || text === ""}>
          {t("planReview.askSend")}
        </button>
      </form>
    </div>
  );
}
