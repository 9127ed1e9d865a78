import { useEffect } from "react";
import type { WebClient } from "../client/WebClient.ts";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { appStore } from "../store/store.ts";
import { AttentionController } from "./attentionController.ts";
import { BrowserNotifier, describeNotice } from "./browserNotifier.ts";

/** W4/X5: title badge and notifications for whatever waits while this tab is hidden. */
export function useAttention(client: WebClient): void {
  const { t } = useTranslation("common");

  useEffect(() => {
    const notifier = new BrowserNotifier(
      (notice) => describeNotice(notice, t, Date.now() + appStore.getState().clockOffsetMs),
      (sessionId) => client.openSession(sessionId),
    );
    const controller = new AttentionController(
      () => appStore.getState(),
      {
        isHidden: () => document.visibilityState === "hidden",
        browserNow: () => Date.now(),
        setTitle: (title) => {
          document.title = title;
        },
        notify: (notice) => notifier.notify(notice),
        setTimer: (run, ms) => {
          const id = window.setTimeout(run, ms);
          return () => window.clearTimeout(id);
        },
      },
      document.title,
    );
    const onVisibility = () => {
      if (document.visibilityState === "visible") notifier.closeAll();
      controller.check();
    };
    const unsubscribe = appStore.subscribe((state, previous) => {
      if (
        state.views !== previous.views ||
        state.sessions !== previous.sessions ||
        state.clockOffsetMs !== previous.clockOffsetMs
      ) {
        controller.check();
      }
    });
    document.addEventListener("visibilitychange", onVisibility);
    controller.check();
    return () => {
      unsubscribe();
      document.removeEventListener("visibilitychange", onVisibility);
      controller.stop();
    };
  }, [client, t]);
}
