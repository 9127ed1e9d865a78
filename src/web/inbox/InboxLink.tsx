import { useTranslation } from "../i18n/useTranslation.tsx";
import { useAppStore } from "../store/store.ts";
import "./inboxLink.css";

/** U1: the way into the inbox from the session list, with how many decisions wait. */
export function InboxLink() {
  const { t } = useTranslation();
  const count = useAppStore((s) => Object.keys(s.inbox).length);
  const current = useAppStore((s) => s.page === "inbox");
  const showPage = useAppStore((s) => s.showPage);
  return (
    <button
      type="button"
      className="inbox-link"
      data-testid="inbox-link"
      aria-current={current ? "page" : undefined}
      onClick={() => showPage("inbox")}
    >
      <span>{t("inbox.link")}</span>
      {count > 0 ? (
        <span className="inbox-link-badge" data-testid="inbox-count">
          <span aria-hidden="true">{count}</span>
          <span className="sr-only">{t("inbox.linkWaiting", { count })}</span>
        </span>
      ) : null}
    </button>
  );
}
