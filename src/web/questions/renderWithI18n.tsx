import { render } from "@testing-library/react";
import { createInstance, type i18n } from "i18next";
import type { ReactElement } from "react";
import { I18nextProvider, initReactI18next } from "react-i18next";
import en from "../../../locales/en/question.json";
import zhCN from "../../../locales/zh-CN/question.json";

export type TestLanguage = "en" | "zh-CN";

/** Test-only: an i18next instance over the real question locale files. */
export function questionI18n(lng: TestLanguage = "en"): i18n {
  const instance = createInstance();
  void instance.use(initReactI18next).init({
    lng,
    fallbackLng: "en",
    ns: ["question"],
    defaultNS: "question",
    resources: { en: { question: en }, "zh-CN": { question: zhCN } },
    interpolation: { escapeValue: false },
    initAsync: false,
    react: { useSuspense: false },
  });
  return instance;
}

export function renderWithI18n(ui: ReactElement, lng: TestLanguage = "en") {
  const instance = questionI18n(lng);
  const wrap = (node: ReactElement) => <I18nextProvider i18n={instance}>{node}</I18nextProvider>;
  const result = render(wrap(ui));
  return { ...result, rerender: (next: ReactElement) => result.rerender(wrap(next)) };
}
