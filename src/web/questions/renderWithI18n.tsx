import { render } from "@testing-library/react";
import { createInstance, type i18n } from "i18next";
import type { ReactElement } from "react";
import { I18nextProvider, initReactI18next } from "react-i18next";
import enPlan from "../../../locales/en/plan.json";
import en from "../../../locales/en/question.json";
import zhPlan from "../../../locales/zh-CN/plan.json";
import zhCN from "../../../locales/zh-CN/question.json";

export type TestLanguage = "en" | "zh-CN";

/** Test-only: an i18next instance over the real question and plan locale files (as the app). */
export function questionI18n(lng: TestLanguage = "en"): i18n {
  const instance = createInstance();
  void instance.use(initReactI18next).init({
    lng,
    fallbackLng: "en",
    ns: ["question", "plan"],
    defaultNS: "question",
    fallbackNS: "plan",
    resources: {
      en: { question: en, plan: enPlan },
      "zh-CN": { question: zhCN, plan: zhPlan },
    },
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
