import { useId } from "react";
import type { PlanApproveOption } from "../../protocol/index.ts";
import { useTranslation } from "../i18n/useTranslation.tsx";

export const APPROVE_OPTIONS: readonly PlanApproveOption[] = ["default", "edit", "build", "fresh"];

export interface ApproveOptionsProps {
  open: boolean;
  chosen: PlanApproveOption;
  disabled: boolean;
  onToggle(): void;
  onChoose(option: PlanApproveOption): void;
}

/**
 * V5: how the approved plan is carried out. A radio group behind a disclosure: choosing only
 * changes what Approve will do, so no key press here can approve.
 */
export function ApproveOptions({
  open,
  chosen,
  disabled,
  onToggle,
  onChoose,
}: ApproveOptionsProps) {
  const { t } = useTranslation("question");
  const groupId = useId();
  return (
    <div className="qreview-approve-options">
      <button
        type="button"
        className="qbtn qbtn--link"
        aria-expanded={open}
        aria-controls={groupId}
        onClick={onToggle}
      >
        {t("planReview.approveOptions")}
      </button>
      <fieldset id={groupId} hidden={!open} className="qreview-approve-group" disabled={disabled}>
        <legend>{t("planReview.approveOptionsLegend")}</legend>
        {APPROVE_OPTIONS.map((option) => (
          <label key={option} className="qreview-approve-option">
            <input
              type="radio"
              name={groupId}
              value={option}
              checked={chosen === option}
              onChange={() => onChoose(option)}
            />
            <span>{t(`planReview.option.${option}`)}</span>
            {option === "default" && (
              <span className="qreview-default-mark">{t("planReview.defaultMark")}</span>
            )}
          </label>
        ))}
      </fieldset>
    </div>
  );
}
