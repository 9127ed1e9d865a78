import { memo, useCallback, useEffect, useMemo, useState } from "react";
import {
  headlineOf,
  type InboxItem,
  isDrivenOverMcp,
  mcpClientOf,
  queuePositions,
  type SessionSummary,
} from "../../protocol/index.ts";
import { waitingKindOf } from "../attention/attentionState.ts";
import { useClient } from "../client/ClientContext.tsx";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { CountdownChip } from "../questions/CountdownChip.tsx";
import { QuestionComposer } from "../questions/QuestionComposer.tsx";
import { formatRelativeTime } from "../sessions/relativeTime.ts";
import { useNow } from "../sessions/useNow.ts";
import { useAppStore } from "../store/store.ts";
import { InboxHelp } from "./InboxHelp.tsx";
import { sortedInbox } from "./inboxState.ts";
import { NotifyDeviceButton } from "./NotifyDeviceButton.tsx";
import { openedFromHash } from "./openedFromHash.ts";
import { useInboxKeys } from "./useInboxKeys.ts";
import { useRovingRows } from "./useRovingRows.ts";
import "./inbox.css";

/** A long inbox shows its oldest part first; more rows come by page or as j reaches them. */
const ROWS_PER_PAGE = 30;

function InboxCard({ item, onChat }: { item: InboxItem; onChat(): void }) {
  const client = useClient();
  const id = item.request.interactionId;
  const clockOffsetMs = useAppStore((s) => s.clockOffsetMs);
  const receipt = useAppStore((s) => s.receipts[id]);
  return (
    <QuestionComposer
      pending={item}
      waitingBehind={0}
      clockOffsetMs={clockOffsetMs}
      receipt={receipt}
      onAnswer={(answers) => client.answer(id, answers)}
      onCancel={() => client.cancelInteraction(id)}
      onDecide={(decision) => client.decide(id, decision)}
      onTouch={() => client.touch(id)}
      onDraft={(draft) => client.saveDraft(id, draft)}
      focusComposer={onChat}
    />
  );
}

/** W6: an opened card is scrolled into view whole, decisions included. */
function revealWhole(panel: HTMLElement | null): void {
  panel?.scrollIntoView?.({ block: "nearest" });
}

interface InboxRowProps {
  item: InboxItem;
  /** Q7: how many of its session's items wait before it. */
  waitingBefore: number;
  session: SessionSummary | undefined;
  open: boolean;
  now: number;
  clockOffsetMs: number;
  rowRef(element: HTMLElement | null): void;
  onFocus(): void;
  onToggle(id: string): void;
}

const InboxRow = memo(function InboxRow({
  item,
  waitingBefore,
  session,
  open,
  now,
  clockOffsetMs,
  rowRef,
  onFocus,
  onToggle,
}: InboxRowProps) {
  const { t, i18n } = useTranslation(["inbox", "common"]);
  const client = useClient();
  const { request } = item;
  const model = session?.model ?? "";
  // An MCP agent names itself; the mark keeps one called "plangate" from passing as a session.
  const overMcp = isDrivenOverMcp(model);
  const agent = overMcp ? mcpClientOf(model) : t("agent.own");
  const kind = waitingKindOf(request);
  const text = headlineOf(request);
  const panelId = `inbox-card-${request.interactionId}`;
  return (
    <li
      className="inbox-item"
      data-testid="inbox-item"
      data-interaction-id={request.interactionId}
      data-kind={kind}
    >
      <button
        type="button"
        ref={rowRef}
        className="inbox-row"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onFocus={onFocus}
        onClick={() => onToggle(request.interactionId)}
      >
        <span className="inbox-row-top">
          <span className={`inbox-kind inbox-kind--${kind}`}>{t(`kind.${kind}`)}</span>
          <span className="inbox-agent" data-testid="inbox-agent">
            {agent}
          </span>
          {overMcp ? (
            <span className="inbox-via-mcp" data-testid="inbox-via-mcp">
              {t("agent.overMcp")}
            </span>
          ) : null}
          <span className="inbox-session">{session?.title || t("common:sessions.untitled")}</span>
        </span>
        <span className="inbox-text">{text}</span>
        <span className="inbox-row-meta">
          <time dateTime={new Date(request.createdAt).toISOString()}>
            {t("asked", { age: formatRelativeTime(request.createdAt, now, i18n.language) })}
          </time>
          {waitingBefore > 0 ? <span>{t("queued", { count: waitingBefore })}</span> : null}
          <CountdownChip countdown={item.countdown} clockOffsetMs={clockOffsetMs} />
        </span>
      </button>
      {open ? (
        <div id={panelId} className="inbox-card" data-inbox-card="" ref={revealWhole}>
          <InboxCard item={item} onChat={() => client.openSession(request.sessionId)} />
        </div>
      ) : null}
    </li>
  );
});

/**
 * U1: everything that waits for the user, across every session and agent, oldest first. Each
 * item opens in place on the same cards the session shows; j / k / Enter triage the list.
 */
export function InboxPage() {
  // Suspends (PageLoading) until the page's copy is in: it is fetched with the page (issue 15).
  const { t } = useTranslation("inbox", { useSuspense: true });
  const inbox = useAppStore((s) => s.inbox);
  const sessions = useAppStore((s) => s.sessions);
  const clockOffsetMs = useAppStore((s) => s.clockOffsetMs);
  const now = useNow() + clockOffsetMs;
  const items = useMemo(() => sortedInbox(inbox), [inbox]);
  const positions = useMemo(() => queuePositions(items), [items]);
  const [openId, setOpenId] = useState<string | null>(() => openedFromHash(window.location.hash));
  const [helpOpen, setHelpOpen] = useState(false);
  const [shown, setShown] = useState(ROWS_PER_PAGE);
  const ids = useMemo(() => items.map((item) => item.request.interactionId), [items]);
  const reveal = useCallback(
    (index: number) => setShown((count) => Math.max(count, index + ROWS_PER_PAGE)),
    [],
  );
  const { cursor, focusAt, step, register } = useRovingRows(ids, reveal);
  const toggle = useCallback(
    (id: string) => setOpenId((current) => (current === id ? null : id)),
    [],
  );
  const rest = items.length - shown;

  // W11: when the open item is settled (here or elsewhere), focus lands on the one after it.
  useEffect(() => {
    if (openId === null || openId in inbox) return;
    setOpenId(null);
    focusAt(cursor.current);
  }, [inbox, openId, focusAt, cursor]);

  const actions = useMemo(
    () => ({
      next: () => step(1),
      previous: () => step(-1),
      toggleHelp: () => setHelpOpen((shown) => !shown),
      closeHelp: () => setHelpOpen(false),
    }),
    [step],
  );
  useInboxKeys(actions);

  return (
    <section className="inbox" aria-labelledby="inbox-heading" data-testid="inbox">
      <div className="inbox-head">
        <div>
          <h2 id="inbox-heading" className="inbox-heading">
            {t("heading")}
          </h2>
          {items.length > 0 ? (
            <p className="inbox-count">{t("count", { count: items.length })}</p>
          ) : null}
        </div>
        <NotifyDeviceButton />
        <button
          type="button"
          className="btn btn--ghost inbox-help-button"
          aria-haspopup="dialog"
          aria-expanded={helpOpen}
          onClick={() => setHelpOpen((shown) => !shown)}
        >
          {t("help.button")} <kbd>?</kbd>
        </button>
      </div>
      {items.length === 0 ? (
        <p className="inbox-empty">{t("empty")}</p>
      ) : (
        <ol className="inbox-list" data-testid="inbox-list" data-total={items.length}>
          {items.slice(0, shown).map((item, index) => {
            const id = item.request.interactionId;
            return (
              <InboxRow
                key={id}
                item={item}
                waitingBefore={positions.get(id) ?? 0}
                session={sessions[item.request.sessionId]}
                open={openId === id}
                now={now}
                clockOffsetMs={clockOffsetMs}
                {...register(id, index)}
                onToggle={toggle}
              />
            );
          })}
        </ol>
      )}
      {rest > 0 ? (
        <button type="button" className="btn inbox-more" onClick={() => reveal(shown)}>
          {t("showMore", { count: Math.min(rest, ROWS_PER_PAGE) })}
        </button>
      ) : null}
      {helpOpen ? <InboxHelp onClose={() => setHelpOpen(false)} /> : null}
    </section>
  );
}
