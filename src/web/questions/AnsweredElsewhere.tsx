import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import "./questions.css";

/** X3/W12: the interaction this tab showed was settled by another tab or device. */
export function AnsweredElsewhere({ onShowNext }: { onShowNext?: () => void }) {
  const { t } = useTranslation("question");
  const nextRef = useRef<HTMLButtonElement>(null);
  // W11: the card that had focus is gone; the way on takes it rather than the page body.
  useEffect(() => {
    if (document.activeElement === document.body) nextRef.current?.focus();
  }, []);
  if (onShowNext === undefined) {
    return (
      <p className="qcard qelsewhere" role="status">
        {t("elsewhere.answered")}
      </p>
    );
  }
  return (
    <div className="qcard qelsewhere" data-testid="answered-elsewhere">
      <p role="status">{t("elsewhere.answeredNext")}</p>
      <div className="qcard-actions">
        <button ref={nextRef} type="button" className="qbtn qbtn--primary" onClick={onShowNext}>
          {t("elsewhere.showNext")}
        </button>
      </div>
    </div>
  );
}
