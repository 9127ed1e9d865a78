import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { I18nextProvider } from "react-i18next";
import type { ClientFrame, ServerFrame } from "../../protocol/index.ts";
import { ClientProvider } from "../client/ClientContext.tsx";
import { WebClient } from "../client/WebClient.ts";
import { createAppI18n } from "../i18n/i18n.ts";
import type { Language } from "../i18n/language.ts";
import en from "../i18n/locale.en.ts";
import zhCN from "../i18n/locale.zh-CN.ts";
import { appStore, resetStore } from "../store/store.ts";

/**
 * Test-only: renders shell components over a fresh store, the real locale files and a
 * client whose frames are recorded instead of sent.
 */
export function renderShell(
  ui: ReactElement,
  options: { language?: Language; online?: boolean; frames?: ServerFrame[] } = {},
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
        sent.push(frame);
        return true;
      },
    },
    { now: () => 50_000 },
  );
  if (online) appStore.getState().setConnectionStatus({ status: "open", clockOffsetMs: 0 });
  for (const frame of options.frames ?? []) client.receive(frame);
  sent.length = 0;
  // Only the active language, as main.tsx loads it; a switch fetches the other (issue 15).
  const language = options.language ?? "en";
  const messages = language === "en" ? en : zhCN;
  const i18n = createAppI18n(language, messages, document.documentElement);
  const result = render(
    <I18nextProvider i18n={i18n}>
      <ClientProvider client={client}>{ui}</ClientProvider>
    </I18nextProvider>,
  );
  return { ...result, sent, client, i18n, store: appStore, link };
}
