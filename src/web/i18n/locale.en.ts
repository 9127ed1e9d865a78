import common from "../../../locales/en/common.json";
import plan from "../../../locales/en/plan.json";
import question from "../../../locales/en/question.json";

/**
 * English copy of the first screen, one chunk: loaded only when English is the active language;
 * the pages' namespaces come with the pages (resources.ts, issue 15).
 */
export default { common, question, plan };
