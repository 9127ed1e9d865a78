import { useState } from "react";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { type PushSubscribeResult, subscribeToPush } from "../pwa/subscribeToPush.ts";

/** U3: turns on notifications for this device; says plainly when it cannot. */
export function NotifyDeviceButton({
  subscribe = subscribeToPush,
}: {
  subscribe?: () => Promise<PushSubscribeResult>;
}) {
  const { t } = useTranslation("inbox");
  const [state, setState] = useState<PushSubscribeResult | "idle" | "busy">("idle");
  if (state === "subscribed") {
    return (
      <p className="inbox-notify-status" role="status">
        {t("notify.subscribed")}
      </p>
    );
  }
  return (
    <div className="inbox-notify">
      <button
        type="button"
        className="btn inbox-notify-button"
        disabled={state === "busy"}
        onClick={async () => {
          setState("busy");
          setState(await subscribe());
        }}
      >
        {t("notify.button")}
      </button>
      {state === "unsupported" || state === "denied" || state === "failed" ? (
        <p className="inbox-notify-status" role="status">
          {t(`notify.${state}`)}
        </p>
      ) : null}
    </div>
  );
}
