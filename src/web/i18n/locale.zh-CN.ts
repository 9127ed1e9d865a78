import common from "../../../locales/zh-CN/common.json";
import inbox from "../../../locales/zh-CN/inbox.json";
import plan from "../../../locales/zh-CN/plan.json";
import question from "../../../locales/zh-CN/question.json";
import settings from "../../../locales/zh-CN/settings.json";

/** Chinese copy, one chunk: loaded only when Chinese is the active language (issue 15). */
export default { common, question, plan, settings, inbox };
