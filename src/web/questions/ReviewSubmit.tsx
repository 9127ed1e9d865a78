import type { Ref } from "react";
import { useTranslation } from "../i18n/useTranslation.tsx";

/** Submitting with gaps says so on the button: skipping is a choice, not an accident (W10). */
export function ReviewSubmit({
  buttonRef,
  gaps,
  disabled,
  onSubmit,
}: {
  buttonRef: Ref<HTMLButtonElement>;
  gaps: number;
  disabled: boolean;
  onSubmit(): void;
}) {
  const { t } = useTranslation("question");
  return (
    <button
      ref={buttonRef}
      type="button"
      className="qbtn qbtn--primary"
      disabled={disabled}
      onClick={onSubmit}
    >
      {gaps > 0 ? t("review.submitSkipping", { count: gaps }) : t("generic.submit")}
    </button>
  );
}
