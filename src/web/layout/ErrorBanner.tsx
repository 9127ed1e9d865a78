import { FATAL_ERRORS } from "../client/WebClient.ts";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { useAppStore } from "../store/store.ts";

export function ErrorBanner() {
  const { t } = useTranslation();
  const error = useAppStore((s) => s.lastError);
  const storageFailing = useAppStore((s) => s.storage.state === "failing");
  const dismiss = useAppStore((s) => s.dismissError);
  // The link ended: the connection's banner says why, in the page's words.
  if (!error || FATAL_ERRORS.has(error.code)) return null;
  const storage = error.code === "STORAGE_FAILED";
  // R3: the storage banner already says that nothing can be saved, and why.
  if (storage && storageFailing) return null;
  return (
    <div className="banner banner--error" role="alert" data-testid="server-error">
      <p>{storage ? t("error.STORAGE_FAILED") : t("error.server", { message: error.message })}</p>
      <button type="button" className="btn btn--ghost" onClick={dismiss}>
        {t("error.dismiss")}
      </button>
    </div>
  );
}
