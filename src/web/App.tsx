import { Suspense, useRef } from "react";
import { LazyAttention } from "./attention/LazyAttention.tsx";
import { useClient } from "./client/ClientContext.tsx";
import { useHashRoute } from "./client/useHashRoute.ts";
import { ComposerArea } from "./composer/ComposerArea.tsx";
import { useTranslation } from "./i18n/useTranslation.tsx";
import { InboxLink } from "./inbox/InboxLink.tsx";
import { ConnectionBanner, ConnectionStatus } from "./layout/ConnectionStatus.tsx";
import { requestComposerFocus, takeComposerFocusRequest } from "./layout/composerFocus.ts";
import { ErrorBanner } from "./layout/ErrorBanner.tsx";
import { Header } from "./layout/Header.tsx";
import { InboxPage, SettingsPage } from "./layout/lazyPages.ts";
import { PageLoading } from "./layout/PageLoading.tsx";
import { SessionsToggle } from "./layout/SessionsToggle.tsx";
import { TeardownScope } from "./layout/teardown.tsx";
import { leavingProps, type Mounted, useLeaving } from "./layout/useLeaving.ts";
import { usePhoneLayout } from "./layout/usePhoneLayout.ts";
import { useSessionsDrawer } from "./layout/useSessionsDrawer.ts";
import { showsLongText } from "./markdown/blockRuns.ts";
import { LocalizedFootnotes } from "./markdown/footnoteNamingContext.tsx";
import { SessionList } from "./sessions/SessionList.tsx";
import { useTheme } from "./settings/useTheme.ts";
import { useAppStore } from "./store/store.ts";
import { TodoPanel } from "./todos/TodoPanel.tsx";
import { Transcript } from "./transcript/Transcript.tsx";
import "./styles/tokens.css";
import "./styles/base.css";
import "./styles/layout.css";

function SessionPane({ pane, onLeft }: { pane: Mounted<string>; onLeft: () => void }) {
  const sessionId = pane.key;
  return (
    <div className="session-pane" data-session-pane={sessionId} {...leavingProps(pane)}>
      <TeardownScope leaving={pane.isLeaving} onDone={onLeft}>
        <TodoPanel sessionId={sessionId} />
        <Transcript sessionId={sessionId} />
        <ComposerArea sessionId={sessionId} />
      </TeardownScope>
    </div>
  );
}

function sameId(sessionId: string): string {
  return sessionId;
}

// A pane switched away from while it shows a long plan takes it down in steps (W1: no freeze).
function paneLeavesInSteps(sessionId: string): boolean {
  const pane = document.querySelector(`[data-session-pane="${CSS.escape(sessionId)}"]`);
  return pane !== null && showsLongText(pane);
}

/** W11: the keyboard goes to the new session's message box, typed-ahead text included. */
function startSession(client: ReturnType<typeof useClient>, boxLabel: string): void {
  requestComposerFocus(boxLabel);
  if (!client.createSession()) takeComposerFocusRequest();
}

function EmptyState() {
  const { t } = useTranslation();
  const client = useClient();
  const noSessions = useAppStore(
    (s) => s.connection.status === "open" && Object.keys(s.sessions).length === 0,
  );
  if (!noSessions) {
    return (
      <div className="empty">
        <h2>{t("empty.title")}</h2>
        <p>{t("empty.body")}</p>
      </div>
    );
  }
  return (
    <div className="empty">
      <h2>{t("empty.noSessionsTitle")}</h2>
      <p>{t("empty.noSessionsBody")}</p>
      <button
        type="button"
        className="btn btn--primary"
        onClick={() => startSession(client, t("composer.label"))}
      >
        {t("sessions.new")}
      </button>
    </div>
  );
}

const SIDEBAR_ID = "sessions-sidebar";

function BackIcon() {
  return (
    <svg className="icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M7.2 2.7 8.3 3.8 4.9 7.2H14v1.6H4.9l3.4 3.4-1.1 1.1L1.9 8z" />
    </svg>
  );
}

/**
 * W1: sessions on the left; the selected session or the settings on the right. U2: a phone
 * stacks them, and an open session, the inbox or the settings take the whole screen with the
 * list in a drawer.
 */
export function App() {
  const { t } = useTranslation();
  const client = useClient();
  const page = useAppStore((s) => s.page);
  const selected = useAppStore((s) => s.selectedSessionId);
  const online = useAppStore((s) => s.connection.status === "open");
  const showPage = useAppStore((s) => s.showPage);
  useHashRoute(client);
  useTheme();
  const shownSession = page === "session" ? selected : null;
  const panes = useLeaving(shownSession ?? null, sameId, paneLeavesInSteps);
  const mainRef = useRef<HTMLElement>(null);
  // Only the home page (no session, no other page) shows the list as its way in.
  const drawer = useSessionsDrawer(
    usePhoneLayout() && (shownSession !== null || page !== "session"),
    shownSession ?? page,
  );
  const drawerOpen = drawer.state === "open";

  return (
    <LocalizedFootnotes>
      <div className="app" data-sessions={drawer.state}>
        <LazyAttention />
        {/* biome-ignore lint/a11y/useValidAnchor: a skip link is a link; with script it focuses the main area without touching the hash route */}
        <a
          className="skip-link"
          href="#main"
          onClick={(event) => {
            // The route lives in the hash: following #main would close the open session.
            event.preventDefault();
            if (drawerOpen) drawer.close("main");
            else mainRef.current?.focus();
          }}
        >
          {t("app.skipToMain")}
        </a>
        <nav
          ref={drawer.navRef}
          id={SIDEBAR_ID}
          className="sidebar"
          aria-label={t("sidebar.label")}
          onKeyDown={(event) => {
            if (drawerOpen && event.key === "Escape") {
              event.stopPropagation();
              drawer.close("toggle");
            }
          }}
          onClick={(event) => {
            if (!drawerOpen) return;
            const target = event.target as Element;
            // A session chosen in the drawer, even the one already open, is where the user goes.
            if (target.closest("[data-session-id]")) drawer.close("main");
            // W11: the new session's message box takes the keyboard itself.
            else if (target.closest("[data-starts-session]")) drawer.close(null);
          }}
        >
          <div className="sidebar-head">
            {drawerOpen ? (
              <button
                type="button"
                className="btn btn--ghost sidebar-close"
                data-testid="sessions-close"
                aria-label={t("sidebar.close")}
                onClick={() => drawer.close("toggle")}
              >
                <BackIcon />
              </button>
            ) : null}
            <p className="brand">{t("app.name")}</p>
            <button
              type="button"
              className="btn btn--primary"
              data-testid="new-session"
              data-starts-session=""
              disabled={!online}
              onClick={() => startSession(client, t("composer.label"))}
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
        <div className="column" inert={drawerOpen}>
          <Header
            onOpenSettings={() => showPage("settings")}
            sessionsToggle={
              drawer.state === undefined ? null : (
                <SessionsToggle
                  controls={SIDEBAR_ID}
                  expanded={drawerOpen}
                  toggleRef={drawer.toggleRef}
                  onToggle={drawer.open}
                />
              )
            }
          />
          <ConnectionBanner />
          <ErrorBanner />
          <main id="main" ref={mainRef} className="main" tabIndex={-1}>
            {panes.mounted.map((pane) => (
              <SessionPane key={pane.key} pane={pane} onLeft={() => panes.left(pane.key)} />
            ))}
            {page === "settings" ? (
              <Suspense fallback={<PageLoading />}>
                <SettingsPage onBack={() => showPage("session")} />
              </Suspense>
            ) : page === "inbox" ? (
              <Suspense fallback={<PageLoading />}>
                <InboxPage />
              </Suspense>
            ) : (
              !selected && <EmptyState />
            )}
          </main>
        </div>
      </div>
    </LocalizedFootnotes>
  );
}
