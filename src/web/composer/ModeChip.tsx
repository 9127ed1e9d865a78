import type { ModeName } from "../../protocol/index.ts";
import { useTranslation } from "../i18n/useTranslation.tsx";

/** Referenced by the message box, which is where Shift+Tab switches the mode. */
export const MODE_CYCLE_HINT_ID = "mode-cycle-hint";

/**
 * W1/P1: the session's current mode; plan wins over the permission mode beneath it and is
 * drawn in the plan-review amber. A change is announced politely to screen readers.
 */
export function ModeChip({ mode }: { mode: ModeName | null }) {
  const { t } = useTranslation();
  return (
    <>
      {mode ? (
        <span
          className={`mode-chip mode-chip--${mode}`}
          data-testid="mode-chip"
          data-mode={mode}
          title={t("modeChip.cycleHint")}
          aria-live="polite"
          aria-atomic="true"
        >
          <span className="sr-only">{t("mode.prefix")}</span>
          {t(`mode.${mode}`)}
        </span>
      ) : null}
      <span id={MODE_CYCLE_HINT_ID} className="sr-only">
        {t("modeChip.cycleHint")}
      </span>
    </>
  );
}
