import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { LazyAttention } from "./attention/LazyAttention.tsx";
import { useClient } from "./client/ClientContext.tsx";
import { useHashRoute } from "./client/useHashRoute.ts";
import { ComposerArea } from "./composer/ComposerArea.tsx";
import { InboxLink } from "./inbox/InboxLink.tsx";
import { ConnectionBanner, ConnectionStatus } from "./layout/ConnectionStatus.tsx";
import { requestComposerFocus } from "./layout/composerFocus.ts";
import { ErrorBanner } from "./layout/ErrorBanner.tsx";
import { Header } from "./layout/Header.tsx";
import { InboxPage, SettingsPage } from "./layout/lazyPages.ts";
import { PageLoading } from "./layout/PageLoading.tsx";
import { SessionList } from "./sessions/SessionList.tsx";
import { useTheme } from "./settings/useTheme.ts";
import { useAppStore } from "./store/store.ts";
import { TodoPanel } from "./todos/TodoPanel.tsx";
import { Transcript } from "./transcript/Transcript.tsx";
import "./styles/tokens.css";
import "./styles/base.css";
import "./styles/layout.css";

function SessionPane({ sessionId }: { sessionId: string }) {
  return (
    <div className="session-pane">
      <TodoPanel sessionId={sessionId} />
      <Transcript sessionId={sessionId} />
      <ComposerArea sessionId={sessionId} />
    </div>
  );
}

function EmptyState() {
  const { t } = useTranslation();
  return (
    <div className="empty">
      <h2>{t("empty.title")}</h2>
      <p>{t("empty.body")}</p>
    </div>
  );
}

/** W1: sessions on the left; the selected session or the settings on the right. */
export function App() {
  const { t } = useTranslation();
  const client = useClient();
  const page = useAppStore((s) => s.page);
  const selected = useAppStore((s) => s.selectedSessionId);
  const online = useAppStore((s) => s.connection.status === "open");
  const showPage = useAppStore((s) => s.showPage);
  useHashRoute(client);
  useTheme();

  return (
    <div className="app">
      <LazyAttention />
      <a className="skip-link" href="#main">
        {t("app.skipToMain")}
      </a>
      <nav className="sidebar" aria-label={t("sidebar.label")}>
        <div className="sidebar-head">
          <p className="brand">{t("app.name")}</p>
          <button
            type="button"
            className="btn btn--primary"
            data-testid="new-session"
            disabled={!online}
            onClick={() => {
              requestComposerFocus();
              client.createSession();
            }}
          >
            {t("sessions.new")}
          </button>
        </div>
        <InboxLink />
        <h2 id="sessions-heading" className="sidebar-heading">
          {t("sessions.heading")}
        </h2>
        <SessionList />
        <div className="sidebar-foot">
          <ConnectionStatus />
        </div>
      </nav>
      <div className="column">
        <Header onOpenSettings={() => showPage("settings")} />
        <ConnectionBanner />
        <ErrorBanner />
        <main id="main" className="main" tabIndex={-1}>
          {page === "settings" ? (
            <Suspense fallback={<PageLoading />}>
              <SettingsPage onBack={() => showPage("session")} />
            </Suspense>
          ) : page === "inbox" ? (
            <Suspense fallback={<PageLoading />}>
              <InboxPage />
            </Suspense>
          ) : selected ? (
            <SessionPane key={selected} sessionId={selected} />
          ) : (
            <EmptyState />
          )}
        </main>
      </div>
    </div>
  );
}
