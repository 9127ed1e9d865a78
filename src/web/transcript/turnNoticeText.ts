import { fitsTemplate, isTurnNoticeCode } from "../../shared/turnNotices.ts";
import type { TFunction } from "../i18n/translator.ts";

/** A notice or failure as an entry stores it: English text, and a code in newer logs. */
export interface StoredNotice {
  text: string;
  code?: string | undefined;
  params?: Record<string, string> | undefined;
}

/**
 * W2: the notice in the page's language, worded from its code. An entry from an older server
 * (no code), a code this page does not know, or values that do not fit it show the stored text.
 */
export function turnNoticeText(t: TFunction, notice: StoredNotice): string {
  const { code, params = {} } = notice;
  if (code === undefined || !isTurnNoticeCode(code) || !fitsTemplate(code, params)) {
    return notice.text;
  }
  const message = t(`turnNotice.${code}`, params);
  return params.detail === undefined
    ? message
    : t("turnNotice.withDetail", { message, detail: params.detail });
}
