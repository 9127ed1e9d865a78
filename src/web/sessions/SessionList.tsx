import { memo, useEffect, useMemo, useRef, useState } from "react";
import { useShallow } from "zustand/react/shallow";
import type { SessionSummary } from "../../protocol/index.ts";
import { useClient } from "../client/ClientContext.tsx";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { useAppStore } from "../store/store.ts";
import { formatRelativeTime } from "./relativeTime.ts";
import { useNow } from "./useNow.ts";
import "./sessions.css";

/** Memoised: a summary update re-renders its own row, not all of a long list. */
const SessionRow = memo(function SessionRow({
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
  const online = useAppStore((s) => s.connection.status === "open");
  const pending = loadedPending ?? session.pendingInteractions;
  const [editing, setEditing] = useState<"rename" | "delete" | null>(null);
  const [returnFocus, setReturnFocus] = useState(false);
  const rowRef = useRef<HTMLButtonElement>(null);
  const title = session.title || t("sessions.untitled");
  // W11: back on the row once it is rendered again, not a frame later.
  useEffect(() => {
    if (!returnFocus || editing !== null) return;
    rowRef.current?.focus();
    setReturnFocus(false);
  }, [returnFocus, editing]);
  const done = () => {
    setEditing(null);
    setReturnFocus(true);
  };

  if (editing === "rename") {
    return (
      <li className="session-item">
        <RenameForm
          title={session.title}
          onDone={(next) => {
            if (next !== null && next !== session.title) client.renameSession(session.id, next);
            done();
          }}
        />
      </li>
    );
  }
  if (editing === "delete") {
    return (
      <li className="session-item">
        <DeleteConfirm
          title={title}
          onConfirm={() => {
            client.deleteSession(session.id);
            // The row is about to go; the main area is the next thing to read.
            document.getElementById("main")?.focus();
          }}
          onCancel={done}
        />
      </li>
    );
  }
  return (
    <li className="session-item">
      <button
        ref={rowRef}
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
      <span className="session-actions">
        <button
          type="button"
          className="session-action"
          data-testid="session-rename"
          aria-label={t("sessions.rename", { title })}
          title={t("sessions.renameShort")}
          disabled={!online}
          onClick={() => setEditing("rename")}
        >
          <span aria-hidden="true">✎</span>
        </button>
        <button
          type="button"
          className="session-action"
          data-testid="session-delete"
          aria-label={t("sessions.delete", { title })}
          title={t("sessions.deleteShort")}
          disabled={!online}
          onClick={() => setEditing("delete")}
        >
          <span aria-hidden="true">✕</span>
        </button>
      </span>
    </li>
  );
});

/** W15: the title in place; Enter keeps it, Escape leaves it as it was. */
function RenameForm({ title, onDone }: { title: string; onDone(next: string | null): void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(title);
  const inputRef = useRef<HTMLInputElement>(null);
  const finished = useRef(false);
  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, []);
  const finish = (next: string | null) => {
    if (finished.current) return;
    finished.current = true;
    onDone(next === null || next.trim() === "" ? null : next.trim());
  };
  return (
    <form
      className="session-rename"
      onSubmit={(event) => {
        event.preventDefault();
        finish(value);
      }}
    >
      <input
        ref={inputRef}
        className="session-rename-input"
        data-testid="session-rename-input"
        aria-label={t("sessions.renameLabel")}
        maxLength={200}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.preventDefault();
            finish(null);
          }
        }}
        onBlur={() => finish(value)}
      />
    </form>
  );
}

/** W15: deleting cannot be undone, so it asks first and says what goes. */
function DeleteConfirm({
  title,
  onConfirm,
  onCancel,
}: {
  title: string;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    <div
      className="session-confirm"
      role="alertdialog"
      aria-labelledby="session-confirm-text"
      data-testid="session-delete-confirm"
      onKeyDown={(event) => {
        if (event.key === "Escape") onCancel();
      }}
    >
      <p id="session-confirm-text">{t("sessions.deleteConfirm", { title })}</p>
      <div className="session-confirm-actions">
        <button ref={cancelRef} type="button" className="btn btn--ghost" onClick={onCancel}>
          {t("sessions.deleteCancel")}
        </button>
        <button
          type="button"
          className="btn btn--danger"
          data-testid="session-delete-confirm-button"
          onClick={onConfirm}
        >
          {t("sessions.deleteConfirmButton")}
        </button>
      </div>
    </div>
  );
}

/** W1: every session, newest first, with what waits for the user in each. */
export function SessionList() {
  const { t } = useTranslation();
  const sessions = useAppStore(useShallow((s) => Object.values(s.sessions)));
  // Only a welcome lists the sessions: before it (connecting, or the server cannot read its
  // store) an empty list is not "no sessions yet".
  const listed = useAppStore((s) => s.connection.status === "open");
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
      {sorted.length === 0 && listed ? (
        <p className="session-empty">{t("sessions.empty")}</p>
      ) : null}
    </>
  );
}
