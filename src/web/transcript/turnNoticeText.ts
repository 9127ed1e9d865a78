import { placeholdersOf } from "../../shared/placeholders.ts";
import type { TFunction, TranslationKey } from "../i18n/translator.ts";

/** A notice or failure as an entry stores it: English text, and a code in newer logs. */
export interface StoredNotice {
  text: string;
  code?: string | undefined;
  params?: Record<string, string> | undefined;
}

/** A notice as the page shows it: its sentence, then the model server's own words, if any. */
export interface ShownNotice {
  text: string;
  serverSaid?: string | undefined;
}

/**
 * W2: the notice in the page's language, worded from its code by the notices catalog (fetched
 * after the first screen, `worded` once it is in). An entry from an older server (no code), a
 * code the catalog does not word, values its wording names but the entry lacks, or a catalog
 * not in yet show the stored text, which holds the server's words already.
 */
export function turnNoticeText(t: TFunction, notice: StoredNotice, worded: boolean): ShownNotice {
  const { code, params = {} } = notice;
  const key = `turnNotice.${code}`;
  // The server's code may name no key: a missing key reads as itself. A code names its domain
  // (`model.auth`), so it never reaches the catalog's own `withDetail` or `serverSaid`.
  const lookup = `notices:${key}` as TranslationKey;
  const template = worded && code?.includes(".") ? t(lookup) : key;
  const fits = placeholdersOf(template).every((name) => Object.hasOwn(params, name));
  if (template === key || !fits) return { text: notice.text };
  const message = t(lookup, params);
  const text =
    params.detail === undefined
      ? message
      : t("notices:turnNotice.withDetail", { message, detail: params.detail });
  return { text, serverSaid: params.serverSaid };
}
