import type { RefObject } from "react";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { useAppStore } from "../store/store.ts";

function ListIcon() {
  return (
    <svg className="icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M2 3.25h12v1.5H2zm0 4h12v1.5H2zm0 4h12v1.5H2z" />
    </svg>
  );
}

/**
 * U2: on a phone with a session open, the way back to the session list (and the inbox); its
 * badge counts the decisions waiting, as the inbox link does.
 */
export function SessionsToggle({
  controls,
  expanded,
  toggleRef,
  onToggle,
}: {
  controls: string;
  expanded: boolean;
  toggleRef: RefObject<HTMLButtonElement | null>;
  onToggle(): void;
}) {
  const { t } = useTranslation();
  const waiting = useAppStore((s) => Object.keys(s.inbox).length);
  return (
    <button
      ref={toggleRef}
      type="button"
      className="btn btn--ghost topbar-sessions"
      data-testid="sessions-toggle"
      aria-controls={controls}
      aria-expanded={expanded}
      onClick={onToggle}
    >
      <ListIcon />
      <span className="sr-only">{t("sidebar.toggle")}</span>
      {waiting > 0 ? (
        <span className="session-badge">
          <span aria-hidden="true">{waiting}</span>
          <span className="sr-only">{t("inbox.linkWaiting", { count: waiting })}</span>
        </span>
      ) : null}
    </button>
  );
}
