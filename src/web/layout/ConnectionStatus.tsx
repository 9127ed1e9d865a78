import { useTranslation } from "../i18n/useTranslation.tsx";
import { useAppStore } from "../store/store.ts";
import type { ConnectionStatus as Status } from "../store/types.ts";

function useStatusText(connection: Status): string {
  const { t } = useTranslation();
  switch (connection.status) {
    case "connecting":
      return t("connection.connecting");
    case "open":
      return t("connection.open");
    case "reconnecting":
      return t("connection.reconnecting", { attempt: connection.attempt });
    case "closed":
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
  const text = useStatusText(connection);
  return (
    <p
      className="connection-status"
      data-testid="connection-status"
      data-status={connection.status}
    >
      <span className={`connection-dot connection-dot--${connection.status}`} aria-hidden="true" />
      {text}
    </p>
  );
}

/** W8: a token the server no longer takes: say so once, and how to get back in. */
function RefusedBanner() {
  const { t } = useTranslation();
  return (
    <div role="alert" className="banner banner--error" data-testid="access-refused">
      <p>
        <strong>{t("connection.refusedTitle")}</strong> {t("connection.refusedHowTo")}
      </p>
    </div>
  );
}

/** W3: a lost link is announced in the main column until it is back. */
export function ConnectionBanner() {
  const connection = useAppStore((s) => s.connection);
  const text = useStatusText(connection);
  if (connection.status === "refused") return <RefusedBanner />;
  const show = connection.status === "reconnecting" || connection.status === "closed";
  return (
    <div role="status" className={show ? "banner" : "sr-only"}>
      {show ? text : null}
    </div>
  );
}
