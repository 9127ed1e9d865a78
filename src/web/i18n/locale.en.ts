import common from "../../../locales/en/common.json";
import question from "../../../locales/en/question.json";

/**
 * English copy of the first screen, one chunk: loaded only when English is the active language;
 * the lazy parts' namespaces come with them (resources.ts, issue 15).
 */
export default { common, question };
