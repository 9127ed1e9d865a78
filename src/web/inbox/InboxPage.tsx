import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { type InboxItem, isDrivenOverMcp, mcpClientOf } from "../../protocol/index.ts";
import { waitingKindOf, waitingTextOf } from "../attention/attentionState.ts";
import { useClient } from "../client/ClientContext.tsx";
import { CountdownChip } from "../questions/CountdownChip.tsx";
import { QuestionComposer } from "../questions/QuestionComposer.tsx";
import { formatRelativeTime } from "../sessions/relativeTime.ts";
import { useNow } from "../sessions/useNow.ts";
import { useAppStore } from "../store/store.ts";
import { InboxHelp } from "./InboxHelp.tsx";
import { sortedInbox } from "./inboxState.ts";
import { useInboxKeys } from "./useInboxKeys.ts";
import { useRovingRows } from "./useRovingRows.ts";
import "./inbox.css";

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

function InboxRow({
  item,
  open,
  now,
  ref,
  onFocus,
  onToggle,
}: {
  item: InboxItem;
  open: boolean;
  now: number;
  ref(element: HTMLElement | null): void;
  onFocus(): void;
  onToggle(): void;
}) {
  const { t, i18n } = useTranslation(["inbox", "common"]);
  const client = useClient();
  const { request } = item;
  const clockOffsetMs = useAppStore((s) => s.clockOffsetMs);
  const session = useAppStore((s) => s.sessions[request.sessionId]);
  const model = session?.model ?? "";
  const agent = isDrivenOverMcp(model) ? mcpClientOf(model) : t("agent.own");
  const kind = waitingKindOf(request);
  const text =
    request.kind === "permission"
      ? `${request.toolName} · ${request.summary}`
      : (waitingTextOf(request) ?? request.toolName);
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
        ref={ref}
        className="inbox-row"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onFocus={onFocus}
        onClick={onToggle}
      >
        <span className="inbox-row-top">
          <span className={`inbox-kind inbox-kind--${kind}`}>{t(`kind.${kind}`)}</span>
          <span className="inbox-agent" data-testid="inbox-agent">
            {agent}
          </span>
          <span className="inbox-session">{session?.title || t("common:sessions.untitled")}</span>
        </span>
        <span className="inbox-text">{text}</span>
        <span className="inbox-row-meta">
          <time dateTime={new Date(request.createdAt).toISOString()}>
            {t("asked", { age: formatRelativeTime(request.createdAt, now, i18n.language) })}
          </time>
          {item.position > 0 ? <span>{t("queued", { count: item.position })}</span> : null}
          <CountdownChip countdown={item.countdown} clockOffsetMs={clockOffsetMs} />
        </span>
      </button>
      {open ? (
        <div id={panelId} className="inbox-card" data-inbox-card="">
          <InboxCard item={item} onChat={() => client.openSession(request.sessionId)} />
        </div>
      ) : null}
    </li>
  );
}

/**
 * U1: everything that waits for the user, across every session and agent, oldest first. Each
 * item opens in place on the same cards the session shows; j / k / Enter triage the list.
 */
export function InboxPage() {
  const { t } = useTranslation("inbox");
  const inbox = useAppStore((s) => s.inbox);
  const clockOffsetMs = useAppStore((s) => s.clockOffsetMs);
  const now = useNow() + clockOffsetMs;
  const items = useMemo(() => sortedInbox(inbox), [inbox]);
  const [openId, setOpenId] = useState<string | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const ids = useMemo(() => items.map((item) => item.request.interactionId), [items]);
  const { cursor, focusAt, step, register } = useRovingRows(ids);

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
        <ol className="inbox-list" data-testid="inbox-list">
          {items.map((item, index) => {
            const id = item.request.interactionId;
            return (
              <InboxRow
                key={id}
                item={item}
                open={openId === id}
                now={now}
                {...register(id, index)}
                onToggle={() => setOpenId((current) => (current === id ? null : id))}
              />
            );
          })}
        </ol>
      )}
      {helpOpen ? <InboxHelp onClose={() => setHelpOpen(false)} /> : null}
    </section>
  );
}
