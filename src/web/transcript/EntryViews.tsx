import { memo } from "react";
import type { SessionEntry } from "../../protocol/index.ts";
import { modeName } from "../composer/modeName.ts";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { Markdown } from "../markdown/Markdown.tsx";
import { turnNoticeText } from "./turnNoticeText.ts";

type EntryOf<K extends SessionEntry["kind"]> = Extract<SessionEntry, { kind: K }>;

export const UserMessage = memo(function UserMessage({
  entry,
}: {
  entry: EntryOf<"user.message">;
}) {
  const { t } = useTranslation();
  if (entry.synthetic) {
    return (
      <details className="entry entry-note" data-testid="entry-synthetic">
        <summary>{t("transcript.runtimeNote")}</summary>
        <p className="plain-text">{entry.text}</p>
      </details>
    );
  }
  return (
    <article className="entry entry-user" data-testid="entry-user">
      <h3 className="sr-only">{t("transcript.you")}</h3>
      <p className="plain-text">{entry.text}</p>
    </article>
  );
});

export const AssistantMessage = memo(function AssistantMessage({
  entry,
}: {
  entry: EntryOf<"assistant.message">;
}) {
  const { t } = useTranslation();
  return (
    <article className="entry entry-assistant" data-testid="entry-assistant">
      <h3 className="sr-only">{t("transcript.assistant")}</h3>
      <Markdown text={entry.text} />
    </article>
  );
});

export function StreamingMessage({ text }: { text: string }) {
  const { t } = useTranslation();
  return (
    <article className="entry entry-assistant entry-streaming" aria-busy="true">
      <h3 className="sr-only">{t("transcript.writing")}</h3>
      <Markdown text={text} />
    </article>
  );
}

/** The page's wording of turn notices: rare, so its copy comes after the first screen (W2). */
const WITH_NOTICES = ["common", "notices"] as const;

/** W2: the model server's own words, apart from the notice and marked as theirs; text, never markup. */
function ServerSaid({ label, words }: { label: string; words: string | undefined }) {
  if (words === undefined) return null;
  return (
    <span className="entry-notice-server" data-testid="notice-server-said">
      {label}
      <q>{words}</q>
    </span>
  );
}

export const NoticeLine = memo(function NoticeLine({ entry }: { entry: EntryOf<"notice"> }) {
  const { t, ready } = useTranslation(WITH_NOTICES);
  const { text, serverSaid } = turnNoticeText(t, entry, ready);
  return (
    <p
      className={`entry entry-notice entry-notice--${entry.level}`}
      data-testid="entry-notice"
      role={entry.level === "error" ? "alert" : undefined}
    >
      {text}
      <ServerSaid label={t("notices:turnNotice.serverSaid")} words={serverSaid} />
    </p>
  );
});

/** R3: the turn stopped and its end waits for the store; worded like the notice it will write. */
export function TurnStoppedLine({ code }: { code: string }) {
  const { t, ready } = useTranslation(WITH_NOTICES);
  return (
    <p className="entry entry-notice entry-notice--error" data-testid="turn-stopped" role="alert">
      {turnNoticeText(t, { code, text: t("transcript.turnStopped") }, ready).text}
    </p>
  );
}

export const TurnEndedLine = memo(function TurnEndedLine({
  entry,
}: {
  entry: EntryOf<"turn.ended">;
}) {
  const { t, ready } = useTranslation(WITH_NOTICES);
  if (entry.reason === "cancelled") {
    return <p className="entry entry-status">{t("transcript.turnCancelled")}</p>;
  }
  const shown = entry.message
    ? turnNoticeText(t, { text: entry.message, code: entry.code, params: entry.params }, ready)
    : undefined;
  return (
    <p className="entry entry-notice entry-notice--error" data-testid="entry-turn-error">
      {shown ? t("transcript.turnError", { message: shown.text }) : t("transcript.turnErrorBare")}
      <ServerSaid label={t("notices:turnNotice.serverSaid")} words={shown?.serverSaid} />
    </p>
  );
});

export const PlanApprovedCard = memo(function PlanApprovedCard({
  entry,
}: {
  entry: EntryOf<"plan.approved">;
}) {
  const { t } = useTranslation();
  return (
    <section
      className="entry entry-plan"
      data-testid="entry-plan-approved"
      aria-label={t("transcript.planApproved")}
    >
      <header className="entry-plan-head">
        <span className="entry-plan-title">{t("transcript.planApproved")}</span>
        {entry.path ? (
          <span className="entry-plan-path">
            {t("transcript.planSavedTo", { path: entry.path })}
          </span>
        ) : null}
      </header>
      <div className="entry-plan-body">
        <Markdown text={entry.plan} />
      </div>
    </section>
  );
});

export const ModeChangedLine = memo(function ModeChangedLine({
  entry,
}: {
  entry: EntryOf<"session.modeChanged">;
}) {
  const { t } = useTranslation();
  return (
    <p className="entry entry-status">
      {t("transcript.modeChanged", { mode: t(`mode.${modeName(entry.mode)}`) })}
    </p>
  );
});

export const ModelChangedLine = memo(function ModelChangedLine({
  entry,
}: {
  entry: EntryOf<"session.modelChanged">;
}) {
  const { t } = useTranslation();
  return (
    <p className="entry entry-status">{t("transcript.modelChanged", { model: entry.model })}</p>
  );
});
