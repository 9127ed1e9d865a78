import { fitsTemplate, isTurnNoticeCode } from "../../shared/turnNoticeValues.ts";
import type { TFunction } from "../i18n/translator.ts";

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
 * W2: the notice in the page's language, worded from its code. An entry from an older server
 * (no code), a code this page does not know, values that do not fit it, or copy not loaded yet
 * (`worded`: the notices namespace, fetched after the first screen) show the stored text, which
 * holds the server's words already.
 */
export function turnNoticeText(t: TFunction, notice: StoredNotice, worded: boolean): ShownNotice {
  const { code, params = {} } = notice;
  if (!worded || code === undefined || !isTurnNoticeCode(code) || !fitsTemplate(code, params)) {
    return { text: notice.text };
  }
  const message = t(`notices:turnNotice.${code}`, params);
  const text =
    params.detail === undefined
      ? message
      : t("notices:turnNotice.withDetail", { message, detail: params.detail });
  return { text, serverSaid: params.serverSaid };
}
