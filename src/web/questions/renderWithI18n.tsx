import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import enCommon from "../../../locales/en/common.json";
import enPlan from "../../../locales/en/plan.json";
import en from "../../../locales/en/question.json";
import zhCommon from "../../../locales/zh-CN/common.json";
import zhPlan from "../../../locales/zh-CN/plan.json";
import zhCN from "../../../locales/zh-CN/question.json";
import { Translator } from "../i18n/translator.ts";
import { TranslationProvider } from "../i18n/useTranslation.tsx";

export type TestLanguage = "en" | "zh-CN";

const copies = {
  en: { common: enCommon, question: en, plan: enPlan },
  "zh-CN": { common: zhCommon, question: zhCN, plan: zhPlan },
};

/** Test-only: a translator over the real common, question and plan locale files (as the app). */
export function questionI18n(lng: TestLanguage = "en"): Translator {
  return new Translator(lng, copies[lng], (language, namespace) => {
    const copy = (copies[language] as Record<string, Record<string, string>>)[namespace];
    return copy ? Promise.resolve(copy) : Promise.reject(new Error(`no ${namespace} in tests`));
  });
}

export function renderWithI18n(ui: ReactElement, lng: TestLanguage = "en") {
  const translator = questionI18n(lng);
  const wrap = (node: ReactElement) => (
    <TranslationProvider translator={translator}>{node}</TranslationProvider>
  );
  const result = render(wrap(ui));
  return { ...result, rerender: (next: ReactElement) => result.rerender(wrap(next)) };
}
