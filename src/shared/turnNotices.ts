import { PLACEHOLDER } from "./placeholders.ts";

/**
 * W2: what a turn's notices and failures say, by code, in English. The server stores this text
 * with the code and its values, so old logs and other clients still read it; the page words the
 * code from its catalog (`turnNotice.<code>` in locales/<lng>/notices.json, whose English a test
 * holds to these texts). A template names only values every notice of its code has; `detail`
 * (an HTTP status, an error type, a socket error code) is shown verbatim after it, and
 * `serverSaid` (the model server's own message) after that, marked as the server's words.
 */
export const TURN_NOTICE_ENGLISH = {
  "model.auth": "{{endpoint}} refused the API key. Check the key configured for this provider.",
  "model.rateLimited": "{{endpoint}} is rate limiting requests. Wait a moment and try again.",
  "model.overloaded":
    "{{endpoint}} is overloaded or unavailable right now. Try again in a little while.",
  "model.serverError":
    "{{endpoint}} ran into an error of its own. Try again; if it keeps happening, the trouble is on the model server's side.",
  "model.notFound":
    "{{endpoint}} has no model API at {{path}}. Check the provider's base URL (an OpenAI-compatible one usually ends in /v1) and the model id.",
  "model.rejected": "{{endpoint}} rejected the request.",
  "model.contextTooLong":
    "{{endpoint}} refused the request because the conversation is too long for the model's context window. Start a new session, or pick a model with a larger context.",
  "model.unreachable": "Could not connect to {{endpoint}}. Is the server running?",
  "model.timeout": "{{endpoint}} did not answer in time.",
  "model.connectionLost":
    "The connection to {{endpoint}} broke before the reply was finished. Send the message again.",
  "model.cutOff":
    "{{endpoint}} stopped sending before the reply was finished (the connection closed mid-reply). Send the message again.",
  "model.stalled":
    "{{endpoint}} sent nothing for {{seconds}} s in the middle of the reply, so it was given up. Send the message again.",
  "model.noStream": "{{endpoint}} answered without a streamed reply.",
  "model.unreadable": "{{endpoint}} sent a response that could not be read.",
  "model.toolCallWithoutName": "The model sent a tool call without a tool name.",
  "model.unknown":
    "The session's model {{model}} is not among the configured models. Pick another in the model menu, or check the model configuration.",
  "model.disabled":
    "The session's model {{model}} cannot be used as configured (it is marked disabled, or its provider has no API key). Pick another in the model menu, or check the model configuration.",
  "model.noConnection":
    "No connection is configured for the provider {{provider}}. Add its base URL and key to the model configuration.",
  "model.scenarioUnreadable":
    "The scripted model could not read its scenario file {{scenario}}. Check that the file exists and can be read.",
  "model.scenarioInvalid":
    "The scripted model's scenario file {{scenario}} has mistakes, so it cannot run. Starting the server with it lists them.",
  // Written by servers before the failure's kind had its own code; kept so their logs still read.
  "model.failed": "The model call failed: {{reason}}",
  "model.retryRateLimited":
    "{{endpoint}} is rate limiting requests; trying again in {{seconds}} s.",
  "model.retryOverloaded": "{{endpoint}} is busy; trying again in {{seconds}} s.",
  "model.retry": "The request to {{endpoint}} failed; trying again in {{seconds}} s.",
  "turn.failed": "The turn failed: {{reason}}",
  // R3: the store's failure in fixed words: the driver's (paths, hosts) stay in the server's log.
  "storage.full":
    "The turn stopped because it could not be saved: the disk that holds plangate's sessions is full. Free some space on it, then send your message again.",
  "storage.readOnly":
    "The turn stopped because it could not be saved: plangate's session database has become read-only. Make it writable again, then send your message again.",
  "storage.unreachable":
    "The turn stopped because it could not be saved: plangate cannot reach its session database. Check that the database server is running and reachable, then send your message again.",
  "storage.failed":
    "The turn stopped because it could not be saved: plangate's session database is failing. The server's log says why; send your message again once it works.",
  "turn.tooManyModelCalls": "The turn was stopped after {{calls}} model calls without finishing.",
  "reply.empty": "The model sent an empty reply. Send the message again, or rephrase it.",
  "reply.outputLimit":
    "The reply stopped at the model's output limit, so it may be cut off. Ask the agent to continue.",
} as const;

/** How a notice's sentence and its verbatim detail join (`turnNotice.withDetail`). */
export const WITH_DETAIL_ENGLISH = "{{message}} ({{detail}})";

/** What marks the model server's own message (`turnNotice.serverSaid`), shown after the notice. */
export const SERVER_SAID_ENGLISH = "The model server said: ";

export type TurnNoticeCode = keyof typeof TURN_NOTICE_ENGLISH;

/**
 * The values a notice's wording fills in; `detail` is the verbatim part after the sentence and
 * `serverSaid` the model server's words (neither is ever translated).
 */
export type TurnNoticeParams = Record<string, string>;

export interface TurnNotice {
  code: TurnNoticeCode;
  params: TurnNoticeParams;
}

function fill(template: string, params: TurnNoticeParams): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(params, name) ? params[name]! : whole,
  );
}

/** The notice in English, as the log stores it beside its code. */
export function englishTurnNotice({ code, params }: TurnNotice): string {
  const message = fill(TURN_NOTICE_ENGLISH[code], params);
  const detailed =
    params.detail === undefined
      ? message
      : fill(WITH_DETAIL_ENGLISH, { message, detail: params.detail });
  return params.serverSaid === undefined
    ? detailed
    : `${detailed} ${SERVER_SAID_ENGLISH}“${params.serverSaid}”`;
}
