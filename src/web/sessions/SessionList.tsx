import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useShallow } from "zustand/react/shallow";
import type { SessionSummary } from "../../protocol/index.ts";
import { useClient } from "../client/ClientContext.tsx";
import { useAppStore } from "../store/store.ts";
import { formatRelativeTime } from "./relativeTime.ts";
import { useNow } from "./useNow.ts";
import "./sessions.css";

function SessionRow({
  session,
  selected,
  now,
}: {
  session: SessionSummary;
  selected: boolean;
  now: number;
}) {
  const { t, i18n } = useTranslation();
  const client = useClient();
  const loadedPending = useAppStore((s) => s.views[session.id]?.pending.length);
  const pending = loadedPending ?? session.pendingInteractions;
  return (
    <li>
      <button
        type="button"
        className="session-row"
        data-testid="session-item"
        data-session-id={session.id}
        aria-current={selected ? "page" : undefined}
        onClick={() => client.openSession(session.id)}
      >
        <span className="session-title">{session.title || t("sessions.untitled")}</span>
        <span className="session-meta">
          <time dateTime={new Date(session.updatedAt).toISOString()}>
            {formatRelativeTime(session.updatedAt, now, i18n.language)}
          </time>
          {pending > 0 ? (
            <span className="session-badge" data-testid="session-pending">
              <span aria-hidden="true">{pending}</span>
              <span className="sr-only">{t("sessions.pending", { count: pending })}</span>
            </span>
          ) : null}
        </span>
      </button>
    </li>
  );
}

/** W1: every session, newest first, with what waits for the user in each. */
export function SessionList() {
  const { t } = useTranslation();
  const sessions = useAppStore(useShallow((s) => Object.values(s.sessions)));
  const selectedId = useAppStore((s) => (s.page === "session" ? s.selectedSessionId : null));
  const clockOffsetMs = useAppStore((s) => s.clockOffsetMs);
  const now = useNow() + clockOffsetMs;
  const sorted = useMemo(
    () => [...sessions].sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id)),
    [sessions],
  );
  return (
    <>
      <ul className="session-list" data-testid="session-list" aria-labelledby="sessions-heading">
        {sorted.map((session) => (
          <SessionRow
            key={session.id}
            session={session}
            selected={session.id === selectedId}
            now={now}
          />
        ))}
      </ul>
      {sorted.length === 0 ? <p className="session-empty">{t("sessions.empty")}</p> : null}
    </>
  );
}
