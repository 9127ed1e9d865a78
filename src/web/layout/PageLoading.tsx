import { useTranslation } from "../i18n/useTranslation.tsx";

/** Shown in the main area while a lazily loaded page's code arrives (usually a blink). */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <p className="page-loading" role="status" data-testid="page-loading">
      {t("page.loading")}
    </p>
  );
}
