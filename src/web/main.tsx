import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "./runtime/effectsAfterTask.ts";
import { App } from "./App.tsx";
import { ClientProvider } from "./client/ClientContext.tsx";
import { applyInitialRoute } from "./client/useHashRoute.ts";
import { WebClient } from "./client/WebClient.ts";
import { Connection, socketUrl } from "./connection/Connection.ts";
import { checkAccess } from "./connection/checkAccess.ts";
import { deviceInfo } from "./device/deviceIdentity.ts";
import { createAppI18n } from "./i18n/i18n.ts";
import { detectLanguage, LANGUAGE_STORAGE_KEY } from "./i18n/language.ts";
import { loadMessages } from "./i18n/resources.ts";
import { TranslationProvider } from "./i18n/useTranslation.tsx";
import { afterFirstScreen } from "./layout/afterFirstScreen.ts";
import { prefetchPlanReview } from "./questions/LazyPlanReviewPanel.tsx";
import { cachedTheme } from "./settings/theme.ts";
import { resumePoints } from "./store/applyServerFrame.ts";
import { appStore } from "./store/store.ts";

function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

const storage = browserStorage();
const root = document.documentElement;
root.dataset.theme = cachedTheme(storage);
appStore.setState({ settings: { ...appStore.getState().settings, theme: cachedTheme(storage) } });

let savedLanguage: string | null = null;
try {
  savedLanguage = storage?.getItem(LANGUAGE_STORAGE_KEY) ?? null;
} catch {
  savedLanguage = null;
}
const browserLanguages = navigator.languages?.length ? navigator.languages : [navigator.language];
const language = detectLanguage(browserLanguages, savedLanguage);
// Only the active language's copy is fetched, alongside the socket below (issue 15).
const i18nReady = loadMessages(language).then((copy) => createAppI18n(language, copy, root));

applyInitialRoute(window.location.hash);

let client: WebClient | null = null;
const connection = new Connection({
  url: socketUrl(window.location),
  createSocket: (url) => new WebSocket(url),
  resume: () => resumePoints(appStore.getState()),
  device: () => deviceInfo(storage, navigator.userAgent),
  batches: true,
  onFrame: (frame, serverTimeAt) => client?.receive(frame, serverTimeAt),
  onStatus: (status) =>
    client ? client.connectionChanged(status) : appStore.getState().setConnectionStatus(status),
  checkAccess: () => checkAccess(fetch),
});
client = new WebClient(appStore, connection, {
  onFatal: (reason, code) => connection.stop(reason, code),
});

const container = document.getElementById("root");
if (!container) throw new Error("index.html lacks #root");
void i18nReady.then((translator) => {
  createRoot(container).render(
    <StrictMode>
      <TranslationProvider translator={translator}>
        <ClientProvider client={client}>
          <App />
        </ClientProvider>
      </TranslationProvider>
    </StrictMode>,
  );
});
// Lazy chunks come after the first screen and its card are painted (bench/bundle.ts counts
// what comes before); so does the code that fetches them. A failed fetch leaves each lazy part
// to load on first use. The plan card's code first, not behind that work's own chunk: a plan
// that lands soon after the page opens waits for it.
afterFirstScreen(appStore, () => {
  prefetchPlanReview().catch(() => {});
  import("./layout/afterFirstScreenWork.ts").then(
    (work) => work.afterFirstScreenWork(i18nReady),
    () => {},
  );
});
// The markdown chunk is not fetched before the first screen: the first Markdown that mounts
// loads it, so a first card without markdown costs none of it (bench/bundle.ts counts what comes
// before it); it comes after, with the plan card's code.
connection.start();
