import { useEffect, useRef } from "react";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { focusIsIdle } from "./useClaimFocus.ts";
import "./questions.css";

/** X3/W12: the interaction this tab showed was settled by another tab or device. */
export function AnsweredElsewhere({
  onShowNext,
  focusComposer,
}: {
  onShowNext?: () => void;
  focusComposer: () => void;
}) {
  const { t } = useTranslation("question");
  const nextRef = useRef<HTMLButtonElement>(null);
  const hasNext = onShowNext !== undefined;
  const focusComposerRef = useRef(focusComposer);
  focusComposerRef.current = focusComposer;
  // W11: the card that had focus is gone; the way on takes it rather than the page body: the
  // next-question button, also when the next question arrives after the notice, else the
  // message box.
  useEffect(() => {
    if (!focusIsIdle()) return;
    if (hasNext) nextRef.current?.focus();
    else if (document.activeElement === document.body) focusComposerRef.current();
  }, [hasNext]);
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
