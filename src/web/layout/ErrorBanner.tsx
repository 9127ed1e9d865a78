import { useTranslation } from "../i18n/useTranslation.tsx";
import { useAppStore } from "../store/store.ts";

export function ErrorBanner() {
  const { t } = useTranslation();
  const error = useAppStore((s) => s.lastError);
  const dismiss = useAppStore((s) => s.dismissError);
  if (!error) return null;
  return (
    <div className="banner banner--error" role="alert" data-testid="server-error">
      <p>{t("error.server", { message: error.message })}</p>
      <button type="button" className="btn btn--ghost" onClick={dismiss}>
        {t("error.dismiss")}
      </button>
    </div>
  );
}
