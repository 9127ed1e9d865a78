import type { ErrorCode, StorageHealth } from "../../protocol/index.ts";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { useAppStore } from "../store/store.ts";
import type { ConnectionStatus as Status } from "../store/types.ts";

/** The server speaks a newer protocol than this page's code (the page was open across an update). */
const OUTDATED: ErrorCode = "PROTOCOL_MISMATCH";

function useStatusText(connection: Status, storage: StorageHealth): string {
  const { t } = useTranslation();
  switch (connection.status) {
    case "connecting":
      return t("connection.connecting");
    case "open":
      // R3: reachable is not all well while nothing the person does can be kept.
      return storage.state === "ok" ? t("connection.open") : t("connection.storageFailing");
    case "reconnecting":
      return t("connection.reconnecting", { attempt: connection.attempt });
    case "closed":
      if (connection.code === OUTDATED) return t("connection.outdated");
      return connection.reason
        ? t("connection.closed", { reason: connection.reason })
        : t("connection.closedUnknown");
    case "refused":
      return t("connection.refused");
  }
}

/** Always present in the sidebar, so tests and people can tell where the link stands. */
export function ConnectionStatus() {
  const connection = useAppStore((s) => s.connection);
  const storage = useAppStore((s) => s.storage);
  const text = useStatusText(connection, storage);
  const dot =
    connection.status === "open" && storage.state !== "ok" ? "storage-failing" : connection.status;
  return (
    <p
      className="connection-status"
      data-testid="connection-status"
      data-status={connection.status}
      data-storage={storage.state}
    >
      <span className={`connection-dot connection-dot--${dot}`} aria-hidden="true" />
      {text}
    </p>
  );
}

/**
 * A link that ended for good, said once with how to go on: W8's token the server no longer
 * takes, or an update of plangate while this tab was open (with a way to reload).
 */
function LinkEndedBanner({ outdated }: { outdated: boolean }) {
  const { t } = useTranslation();
  const copy = outdated ? "outdated" : "refused";
  return (
    <div
      role="alert"
      className="banner banner--error"
      data-testid={outdated ? "page-outdated" : "access-refused"}
    >
      <p>
        <strong>{t(`connection.${copy}Title`)}</strong>
        {/* English puts a space between sentences, Chinese none after its 。 */}
        {t("connection.sentenceSpace")}
        {t(`connection.${copy}HowTo`)}
      </p>
      {outdated ? (
        <button
          type="button"
          className="qbtn qbtn--primary"
          onClick={() => window.location.reload()}
        >
          {t("connection.reload")}
        </button>
      ) : null}
    </div>
  );
}

/**
 * W3: a lost link is announced in the main column until it is back. R3: so is a server that
 * cannot store anything, and why, until it says it can again (a link being re-established
 * says nothing about the store). One live region, so each change is announced once.
 */
export function ConnectionBanner() {
  const { t } = useTranslation();
  const connection = useAppStore((s) => s.connection);
  const storage = useAppStore((s) => s.storage);
  const text = useStatusText(connection, storage);
  const outdated = connection.status === "closed" && connection.code === OUTDATED;
  if (connection.status === "refused" || outdated) return <LinkEndedBanner outdated={outdated} />;
  const lost = connection.status === "reconnecting" || connection.status === "closed";
  const cannotStore = !lost && storage.state === "failing";
  return (
    <div role="status" className={lost || cannotStore ? "banner" : "sr-only"}>
      {lost ? text : null}
      {storage.state === "failing" && cannotStore ? (
        <div data-testid="storage-banner" data-problem={storage.problem}>
          <p className="banner-text">
            <strong>{t("storage.title")}</strong>
          </p>
          <p className="banner-text">
            {t("storage.detail", { problem: t(`storage.${storage.problem}`) })}
          </p>
        </div>
      ) : null}
    </div>
  );
}
