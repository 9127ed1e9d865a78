import { useEffect, useId } from "react";
import type { Settings } from "../../protocol/index.ts";
import { NotificationSetting } from "../attention/NotificationSetting.tsx";
import { useClient } from "../client/ClientContext.tsx";
import { switchLanguage } from "../i18n/i18n.ts";
import { isLanguage, LANGUAGES } from "../i18n/language.ts";
import { prefetchLanguage } from "../i18n/resources.ts";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { useAppStore } from "../store/store.ts";
import { AgentSetup } from "./AgentSetup.tsx";
import { formatDuration } from "./formatDuration.ts";
import "./settings.css";

const THEMES: Settings["theme"][] = ["system", "light", "dark"];

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** W1/A5: auto-continue (stored on the server), language (this browser), theme; X1 agent setup. */
export function SettingsPage({ onBack }: { onBack(): void }) {
  // Suspends (PageLoading) until the page's copy is in: it is fetched with the page (issue 15).
  const { t, i18n } = useTranslation(["settings", "common"], { useSuspense: true });
  const client = useClient();
  const settings = useAppStore((s) => s.settings);
  const online = useAppStore((s) => s.connection.status === "open");
  const timings = useAppStore((s) => s.timings);
  const ids = { auto: useId(), autoHelp: useId(), language: useId(), theme: useId() };
  // The other languages' copy is fetched while the user looks, so a switch is instant.
  useEffect(() => {
    for (const lng of LANGUAGES) prefetchLanguage(lng);
  }, []);

  return (
    <section className="settings" aria-labelledby="settings-title" data-testid="settings-page">
      <div className="settings-inner">
        <h2 id="settings-title" className="sr-only">
          {t("common:page.settings")}
        </h2>
        <button type="button" className="btn btn--ghost settings-back" onClick={onBack}>
          <span aria-hidden="true">←</span>
          {t("back")}
        </button>

        <section className="settings-section" aria-labelledby={`${ids.auto}-section`}>
          <h3 id={`${ids.auto}-section`}>{t("section.questions")}</h3>
          <div className="setting-row">
            <div className="setting-text">
              <span id={ids.auto} className="setting-label">
                {t("autoContinue.label")}
              </span>
              <p id={ids.autoHelp} className="setting-help">
                {timings
                  ? t("autoContinue.description", {
                      grace: formatDuration(timings.graceMs, i18n.language),
                      deadline: formatDuration(timings.deadlineMs, i18n.language),
                    })
                  : t("autoContinue.descriptionUntimed")}
              </p>
            </div>
            <button
              type="button"
              role="switch"
              className="switch"
              data-testid="auto-continue-switch"
              aria-checked={settings.autoContinue}
              aria-labelledby={ids.auto}
              aria-describedby={ids.autoHelp}
              disabled={!online}
              onClick={() => client.updateSettings({ autoContinue: !settings.autoContinue })}
            >
              <span className="switch-track" aria-hidden="true">
                <span className="switch-thumb" />
              </span>
              <span className="switch-state" aria-hidden="true">
                {settings.autoContinue ? t("autoContinue.on") : t("autoContinue.off")}
              </span>
            </button>
          </div>
          {!online ? <p className="setting-help">{t("offline")}</p> : null}
          <NotificationSetting />
        </section>

        <section className="settings-section" aria-labelledby={`${ids.language}-section`}>
          <h3 id={`${ids.language}-section`}>{t("section.appearance")}</h3>
          <div className="setting-row">
            <label htmlFor={ids.language} className="setting-label">
              {t("language.label")}
            </label>
            <select
              id={ids.language}
              className="select"
              data-testid="language-select"
              value={i18n.language}
              onChange={(event) => {
                const next = event.target.value;
                if (isLanguage(next)) void switchLanguage(i18n, next, safeLocalStorage());
              }}
            >
              {LANGUAGES.map((lng) => (
                <option key={lng} value={lng} lang={lng}>
                  {t(`language.option.${lng}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="setting-row">
            <label htmlFor={ids.theme} className="setting-label">
              {t("theme.label")}
            </label>
            <select
              id={ids.theme}
              className="select"
              data-testid="theme-select"
              value={settings.theme}
              disabled={!online}
              onChange={(event) => {
                const theme = THEMES.find((value) => value === event.target.value);
                if (theme) client.updateSettings({ theme });
              }}
            >
              {THEMES.map((theme) => (
                <option key={theme} value={theme}>
                  {t(`theme.${theme}`)}
                </option>
              ))}
            </select>
          </div>
        </section>

        <AgentSetup />
      </div>
    </section>
  );
}
