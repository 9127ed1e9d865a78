import { useTranslation } from "../i18n/useTranslation.tsx";
import { isOffline } from "../store/outbox.ts";
import { useAppStore } from "../store/store.ts";
import "./offlineHint.css";

/**
 * W7: on a card while the connection is down. `held` says the person already acted: that
 * action waits in the outbox and goes out once, when the connection is back.
 */
export function OfflineHint({ held }: { held: boolean }) {
  const { t } = useTranslation();
  const offline = useAppStore(isOffline);
  if (!offline) return null;
  return (
    <p className="offline-hint" role="status" data-testid="offline-hint">
      {t(held ? "outbox.held" : "outbox.offline")}
    </p>
  );
}
