import common from "../../../locales/zh-CN/common.json";
import question from "../../../locales/zh-CN/question.json";

/**
 * Chinese copy of the first screen, one chunk: loaded only when Chinese is the active language;
 * the lazy parts' namespaces come with them (resources.ts, issue 15).
 */
export default { common, question };
