import type { TFunction } from "../i18n/translator.ts";
import { formatRemaining } from "../questions/CountdownChip.tsx";
import type { Notice } from "./attentionState.ts";

export type NotificationPermissionState = NotificationPermission | "unsupported";

export function notificationPermission(): NotificationPermissionState {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

/** The words of one notice: what waits, and when the agent continues if a countdown shows. */
export function describeNotice(
  notice: Notice,
  t: TFunction<"common">,
  serverNow: number,
): { title: string; body: string } {
  const title = t(`attention.title.${notice.kind}`);
  const lines = notice.text === undefined ? [] : [notice.text];
  if (notice.deadlineAt !== undefined) {
    lines.push(t("attention.countdown", { time: formatRemaining(notice.deadlineAt - serverNow) }));
  }
  return { title, body: lines.join("\n") };
}

/**
 * W4: shows a notice as a browser notification when the user allowed them. One notification
 * per waiting item: a later notice replaces the earlier one so the list does not pile up.
 */
export class BrowserNotifier {
  private readonly shown = new Map<string, Notification>();

  constructor(
    private readonly words: (notice: Notice) => { title: string; body: string },
    private readonly onOpen: (sessionId: string) => void,
  ) {}

  notify(notice: Notice): void {
    if (notificationPermission() !== "granted") return;
    const { title, body } = this.words(notice);
    this.shown.get(notice.key)?.close();
    let notification: Notification;
    try {
      notification = new Notification(title, { body, tag: notice.key });
    } catch {
      // Some browsers only allow notifications from a service worker; the badge still shows.
      return;
    }
    this.shown.set(notice.key, notification);
    notification.onclick = () => {
      window.focus();
      this.onOpen(notice.sessionId);
      notification.close();
    };
    notification.onclose = () => {
      if (this.shown.get(notice.key) === notification) this.shown.delete(notice.key);
    };
  }

  closeAll(): void {
    for (const notification of this.shown.values()) notification.close();
    this.shown.clear();
  }
}
