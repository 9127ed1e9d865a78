import common from "../../../locales/zh-CN/common.json";
import plan from "../../../locales/zh-CN/plan.json";
import question from "../../../locales/zh-CN/question.json";

/**
 * Chinese copy of the first screen, one chunk: loaded only when Chinese is the active language;
 * the pages' namespaces come with the pages (resources.ts, issue 15).
 */
export default { common, question, plan };
