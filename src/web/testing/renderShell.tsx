import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import enInbox from "../../../locales/en/inbox.json";
import enNotices from "../../../locales/en/notices.json";
import enPlan from "../../../locales/en/plan.json";
import enSettings from "../../../locales/en/settings.json";
import zhInbox from "../../../locales/zh-CN/inbox.json";
import zhNotices from "../../../locales/zh-CN/notices.json";
import zhPlan from "../../../locales/zh-CN/plan.json";
import zhSettings from "../../../locales/zh-CN/settings.json";
import type { ClientFrame, ServerFrame } from "../../protocol/index.ts";
import { ClientProvider } from "../client/ClientContext.tsx";
import { WebClient } from "../client/WebClient.ts";
import { createAppI18n } from "../i18n/i18n.ts";
import type { Language } from "../i18n/language.ts";
import en from "../i18n/locale.en.ts";
import zhCN from "../i18n/locale.zh-CN.ts";
import { TranslationProvider } from "../i18n/useTranslation.tsx";
import { appStore, resetStore } from "../store/store.ts";

/**
 * Test-only: renders shell components over a fresh store, the real locale files and a
 * client whose frames are recorded instead of sent.
 */
export function renderShell(
  ui: ReactElement,
  options: {
    language?: Language;
    online?: boolean;
    frames?: ServerFrame[];
    /** Only the first screen's namespaces, as main.tsx starts: the pages' come through the backend. */
    firstScreenCopyOnly?: boolean;
    /**
     * False leaves the message box's draft saves (W14) out of `sent`: they go on a 400 ms timer
     * of their own, and typing on a loaded machine can take longer than that.
     */
    recordComposerDrafts?: boolean;
  } = {},
) {
  resetStore();
  const sent: ClientFrame[] = [];
  const online = options.online ?? true;
  /** Set `up` to let frames through again, e.g. before a test delivers a welcome (W7). */
  const link = { up: online };
  const client = new WebClient(
    appStore,
    {
      send: (frame) => {
        if (!link.up) return false;
        if (frame.type !== "composer.draft" || options.recordComposerDrafts !== false) {
          sent.push(frame);
        }
        return true;
      },
    },
    { now: () => 50_000 },
  );
  if (online) appStore.getState().setConnectionStatus({ status: "open", clockOffsetMs: 0 });
  for (const frame of options.frames ?? []) client.receive(frame);
  sent.length = 0;
  // Only the active language, as main.tsx loads it; a switch fetches the other (issue 15). The
  // pages' namespaces are given too, so a page renders at once, as after the first screen's
  // prefetch.
  const language = options.language ?? "en";
  const messages = options.firstScreenCopyOnly
    ? language === "en"
      ? en
      : zhCN
    : language === "en"
      ? { ...en, plan: enPlan, settings: enSettings, inbox: enInbox, notices: enNotices }
      : { ...zhCN, plan: zhPlan, settings: zhSettings, inbox: zhInbox, notices: zhNotices };
  const i18n = createAppI18n(language, messages, document.documentElement);
  const result = render(
    <TranslationProvider translator={i18n}>
      <ClientProvider client={client}>{ui}</ClientProvider>
    </TranslationProvider>,
  );
  return { ...result, sent, client, i18n, store: appStore, link };
}
