import type { ReactNode } from "react";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { ModelPicker } from "../models/ModelPicker.tsx";
import { useAppStore } from "../store/store.ts";

function GearIcon() {
  return (
    <svg className="icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M8 5.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5Zm0 1.2a1.3 1.3 0 1 1 0 2.6 1.3 1.3 0 0 1 0-2.6ZM6.9 1h2.2l.35 1.8c.4.14.78.36 1.12.63l1.74-.6 1.1 1.9-1.39 1.2a4.6 4.6 0 0 1 0 1.3l1.39 1.2-1.1 1.9-1.74-.6c-.34.27-.72.49-1.12.63L9.1 13.2H6.9l-.35-1.8a4.2 4.2 0 0 1-1.12-.64l-1.74.6-1.1-1.9L3.98 8.3a4.6 4.6 0 0 1 0-1.3L2.59 5.8l1.1-1.9 1.74.6c.34-.27.72-.49 1.12-.63L6.9 1Z"
      />
    </svg>
  );
}

export function Header({
  onOpenSettings,
  sessionsToggle,
}: {
  onOpenSettings(): void;
  /** U2: on a phone with a session open, the way to the session list, before the title. */
  sessionsToggle?: ReactNode;
}) {
  const { t } = useTranslation();
  const page = useAppStore((s) => s.page);
  const title = useAppStore((s) => {
    if (s.page !== "session") return null;
    const id = s.selectedSessionId;
    return id ? (s.sessions[id]?.title ?? "") : undefined;
  });
  const pickerSession = useAppStore((s) => (s.page === "session" ? s.selectedSessionId : null));
  const heading =
    page === "settings"
      ? t("page.settings")
      : page === "inbox"
        ? t("page.inbox")
        : title === undefined
          ? t("header.noSession")
          : title || t("sessions.untitled");
  return (
    <header className="topbar">
      {sessionsToggle}
      <h1 className="topbar-title" data-testid="session-title">
        {heading}
      </h1>
      {pickerSession ? <ModelPicker sessionId={pickerSession} /> : null}
      <button
        type="button"
        className="btn btn--ghost topbar-settings"
        data-testid="settings-button"
        aria-current={page === "settings" ? "page" : undefined}
        onClick={onOpenSettings}
      >
        <GearIcon />
        <span className="topbar-settings-label">{t("header.settings")}</span>
      </button>
    </header>
  );
}
