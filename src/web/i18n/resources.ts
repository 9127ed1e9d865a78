import enCommon from "../../../locales/en/common.json";
import enInbox from "../../../locales/en/inbox.json";
import enPlan from "../../../locales/en/plan.json";
import enQuestion from "../../../locales/en/question.json";
import enSettings from "../../../locales/en/settings.json";
import zhCommon from "../../../locales/zh-CN/common.json";
import zhInbox from "../../../locales/zh-CN/inbox.json";
import zhPlan from "../../../locales/zh-CN/plan.json";
import zhQuestion from "../../../locales/zh-CN/question.json";
import zhSettings from "../../../locales/zh-CN/settings.json";

export const NAMESPACES = ["common", "question", "plan", "settings", "inbox"] as const;
export type Namespace = (typeof NAMESPACES)[number];

export const resources = {
  en: {
    common: enCommon,
    question: enQuestion,
    plan: enPlan,
    settings: enSettings,
    inbox: enInbox,
  },
  "zh-CN": {
    common: zhCommon,
    question: zhQuestion,
    plan: zhPlan,
    settings: zhSettings,
    inbox: zhInbox,
  },
} as const;

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: (typeof resources)["en"];
  }
}
