import type { TurnNoticeCode, TurnNoticeParams } from "./turnNotices.ts";

/**
 * W2: every turn notice code and the values its wording names. The page words a notice from its
 * own catalog and needs only this, not the server's English (issue 15: first load); a test holds
 * it to TURN_NOTICE_ENGLISH.
 */
export const TURN_NOTICE_VALUES: Readonly<Record<TurnNoticeCode, readonly string[]>> = {
  "model.auth": ["endpoint"],
  "model.rateLimited": ["endpoint"],
  "model.overloaded": ["endpoint"],
  "model.serverError": ["endpoint"],
  "model.notFound": ["endpoint", "path"],
  "model.rejected": ["endpoint"],
  "model.contextTooLong": ["endpoint"],
  "model.unreachable": ["endpoint"],
  "model.timeout": ["endpoint"],
  "model.connectionLost": ["endpoint"],
  "model.cutOff": ["endpoint"],
  "model.stalled": ["endpoint", "seconds"],
  "model.noStream": ["endpoint"],
  "model.unreadable": ["endpoint"],
  "model.toolCallWithoutName": [],
  "model.unknown": ["model"],
  "model.disabled": ["model"],
  "model.noConnection": ["provider"],
  "model.scenarioUnreadable": ["scenario"],
  "model.scenarioInvalid": ["scenario"],
  "model.failed": ["reason"],
  "model.retryRateLimited": ["endpoint", "seconds"],
  "model.retryOverloaded": ["endpoint", "seconds"],
  "model.retry": ["endpoint", "seconds"],
  "turn.failed": ["reason"],
  "storage.full": [],
  "storage.readOnly": [],
  "storage.unreachable": [],
  "storage.failed": [],
  "turn.tooManyModelCalls": ["calls"],
  "reply.empty": [],
  "reply.outputLimit": [],
};

export function isTurnNoticeCode(code: string): code is TurnNoticeCode {
  return Object.hasOwn(TURN_NOTICE_VALUES, code);
}

/** True when `params` has every value the code's wording names (an old or foreign entry may not). */
export function fitsTemplate(code: TurnNoticeCode, params: TurnNoticeParams): boolean {
  return TURN_NOTICE_VALUES[code].every((name) => Object.hasOwn(params, name));
}
