import { useId, useState } from "react";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { type NotificationPermissionState, notificationPermission } from "./browserNotifier.ts";
import "./attention.css";

export interface NotificationSettingProps {
  /** Defaults to the browser's Notification API; tests pass their own. */
  permission?: () => NotificationPermissionState;
  request?: () => Promise<NotificationPermission>;
}

function browserRequest(): Promise<NotificationPermission> {
  return Notification.requestPermission();
}

/** W4: the user's consent to notifications is asked here, on a click, never on its own. */
export function NotificationSetting({
  permission = notificationPermission,
  request = browserRequest,
}: NotificationSettingProps) {
  const { t } = useTranslation("settings");
  const [state, setState] = useState(permission);
  const labelId = useId();
  const helpId = useId();

  return (
    <div className="setting-row">
      <div className="setting-text">
        <span id={labelId} className="setting-label">
          {t("notifications.label")}
        </span>
        <p id={helpId} className="setting-help">
          {t("notifications.description")}
        </p>
        {state === "denied" || state === "unsupported" ? (
          <p className="setting-help" data-testid="notifications-state">
            {t(`notifications.${state}`)}
          </p>
        ) : null}
      </div>
      {state === "granted" ? (
        <span className="setting-value" data-testid="notifications-state">
          {t("notifications.granted")}
        </span>
      ) : state === "default" ? (
        <button
          type="button"
          className="btn"
          data-testid="notifications-enable"
          aria-describedby={`${labelId} ${helpId}`}
          onClick={() => {
            void request()
              .then(setState)
              .catch(() => setState(permission()));
          }}
        >
          {t("notifications.enable")}
        </button>
      ) : null}
    </div>
  );
}
