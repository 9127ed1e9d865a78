import common from "../../../locales/en/common.json";
import inbox from "../../../locales/en/inbox.json";
import plan from "../../../locales/en/plan.json";
import question from "../../../locales/en/question.json";
import settings from "../../../locales/en/settings.json";

/** English copy, one chunk: loaded only when English is the active language (issue 15). */
export default { common, question, plan, settings, inbox };
