import { useTranslation } from "react-i18next";
import type { ModeName } from "../../protocol/index.ts";

/** W1/P1: the session's current mode; plan wins over the permission mode beneath it. */
export function ModeChip({ mode }: { mode: ModeName }) {
  const { t } = useTranslation();
  return (
    <span className={`mode-chip mode-chip--${mode}`} data-testid="mode-chip" data-mode={mode}>
      <span className="sr-only">{t("mode.prefix")}</span>
      {t(`mode.${mode}`)}
    </span>
  );
}
