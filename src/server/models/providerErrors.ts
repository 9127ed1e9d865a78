import { ModelError } from "./provider.ts";

/** Removes the key from any text that might reach the transcript. */
export function redact(text: string, secret: string | undefined): string {
  if (secret === undefined || secret.length < 4) return text;
  return text.split(secret).join("[redacted]");
}

/** Where a provider sends its requests, as its errors name it. */
export interface ModelEndpoint {
  /** The base URL's host, without any user info or path. */
  readonly name: string;
  /** The path a request goes to, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** The API key, kept out of every message. */
  readonly secret: string | undefined;
}

export function modelEndpoint(
  baseURL: string,
  requestPath: string,
  secret: string | undefined,
): ModelEndpoint {
  try {
    const url = new URL(baseURL);
    return { name: url.host, path: `${url.pathname.replace(/\/+$/, "")}${requestPath}`, secret };
  } catch {
    return { name: "the model server", path: requestPath, secret };
  }
}

/** What a caller of `complete()` sees after its signal fired: the signal's own reason. */
export function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The model request was cancelled.", "AbortError");
}

/** A server's own words are shown as they are, but not at any length. */
const MAX_SERVER_WORDS = 300;

/** Addresses, file paths and key-like strings: nothing of where or how the server is reached. */
const NOT_SHOWN = [
  /\b[a-z][\w+.-]*:\/\/\S+/gi,
  /\b(?:sk|pk|rk)-[\w-]{8,}/g,
  /\b(?=[\w-]*\d)(?=[\w-]*[a-z])[\w-]{24,}/gi,
  /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g,
  /\b(?:[\w-]+\.)+(?:com|net|org|io|ai|dev|app|cloud|cn|local|internal|lan)(?::\d+)?\b/gi,
  /\b[\w-]+(?:\.[\w-]+)*:\d{2,5}\b/g,
  /(?:\b[A-Za-z]:)?(?:[\\/][\w.-]+){2,}[\\/]?/g,
];

/**
 * The model server's own message, shown beside the notice as its words (W2): the key and
 * anything that names an address or a path left out, and cut to a readable length.
 */
export function serverWords(
  endpoint: ModelEndpoint,
  message: string | undefined,
): string | undefined {
  if (message === undefined) return undefined;
  // Bounded before the patterns run on it (R12); only the start is shown anyway.
  let words = redact(message.slice(0, 4 * MAX_SERVER_WORDS), endpoint.secret);
  for (const pattern of NOT_SHOWN) words = words.replace(pattern, "[…]");
  words = words.replace(/\s+/g, " ").trim();
  if (words === "") return undefined;
  return words.length > MAX_SERVER_WORDS ? `${words.slice(0, MAX_SERVER_WORDS - 1)}…` : words;
}

/** A notice's verbatim detail (a status, an error type) and, when it sent any, the server's words. */
function detailed(
  endpoint: ModelEndpoint,
  detail: string,
  serverMessage: string | undefined,
): Record<string, string> {
  const said = serverWords(endpoint, serverMessage);
  return {
    endpoint: endpoint.name,
    ...(detail === "" ? {} : { detail }),
    ...(said === undefined ? {} : { serverSaid: said }),
  };
}

/**
 * A request the model refused as larger than its context window. Vendors say so by an error
 * code or type (OpenAI `context_length_exceeded`, llama.cpp `exceed_context_size_error`,
 * Anthropic's 413 `request_too_large`) or only in their message (Anthropic, vLLM and others).
 */
function tooLongForContext(status: number | undefined, tag: string, message = ""): boolean {
  if (status === 413) return true;
  if (/context_length|context_size|context_window|request_too_large|too_long/i.test(tag))
    return true;
  return /context (?:length|window|size)|prompt is too long|too many (?:input )?tokens|input is too long/i.test(
    message,
  );
}

/** The longest wait a server may ask for before a retry; asked for more, the turn ends instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** The wait a failed response asks for (`retry-after-ms`, `retry-after` in seconds or as a date). */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const millis = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (!Number.isNaN(millis)) return Math.max(0, millis);
  const after = headers?.get("retry-after");
  if (!after) return undefined;
  const seconds = Number.parseFloat(after);
  if (!Number.isNaN(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** As the vendors' SDKs decide: the server's `x-should-retry`, else timeouts, locks, limits, 5xx. */
function retryFor(status: number, headers: Headers | undefined): ModelError["retry"] {
  const told = headers?.get("x-should-retry");
  const retryable =
    told === "true" ||
    (told !== "false" && (status === 408 || status === 409 || status === 429 || status >= 500));
  if (!retryable) return undefined;
  const afterMs = retryAfterMs(headers);
  if (afterMs !== undefined && afterMs > MAX_RETRY_AFTER_MS) return undefined;
  return { afterMs };
}

/** Maps an HTTP failure status to a transcript-ready error; `tag` is the body's error code or type. */
export function errorForStatus(
  status: number,
  serverMessage: string | undefined,
  headers: Headers | undefined,
  endpoint: ModelEndpoint,
  tag = "",
): ModelError {
  const retry = retryFor(status, headers);
  const params = detailed(endpoint, `HTTP ${status}`, serverMessage);
  if (status === 401 || status === 403) {
    // The server's own text can quote part of the key, so it is left out.
    return new ModelError("auth", {
      code: "model.auth",
      params: { endpoint: endpoint.name, detail: `HTTP ${status}` },
    });
  }
  if (status === 429) {
    return new ModelError("rate_limit", { code: "model.rateLimited", params }, retry);
  }
  // 529 is Anthropic's "overloaded"; 503 is how other servers say the same.
  if (status === 529 || status === 503) {
    return new ModelError("overloaded", { code: "model.overloaded", params }, retry);
  }
  if (status >= 500) {
    return new ModelError("server", { code: "model.serverError", params }, retry);
  }
  if (status === 404) {
    return new ModelError("not_found", {
      code: "model.notFound",
      params: { ...params, path: endpoint.path },
    });
  }
  if (tooLongForContext(status, tag, serverMessage)) {
    return new ModelError("too_long", { code: "model.contextTooLong", params });
  }
  return new ModelError("bad_response", { code: "model.rejected", params }, retry);
}

/**
 * An error object sent inside an open stream: it has a type or code but no HTTP status, and
 * the reply may have begun, so it is not sent again.
 */
export function errorForStreamEvent(
  tag: string,
  serverMessage: string | undefined,
  endpoint: ModelEndpoint,
): ModelError {
  const params = detailed(endpoint, tag, serverMessage);
  if (/rate_limit|quota|429/.test(tag)) {
    return new ModelError("rate_limit", { code: "model.rateLimited", params });
  }
  if (/overloaded|529|503/.test(tag)) {
    return new ModelError("overloaded", { code: "model.overloaded", params });
  }
  if (/api_key|auth|permission|401|403/.test(tag)) {
    return new ModelError("auth", {
      code: "model.auth",
      params: { endpoint: endpoint.name, detail: tag },
    });
  }
  if (tooLongForContext(undefined, tag, serverMessage)) {
    return new ModelError("too_long", { code: "model.contextTooLong", params });
  }
  if (/invalid_request|400/.test(tag)) {
    return new ModelError("bad_response", { code: "model.rejected", params });
  }
  return new ModelError("server", { code: "model.serverError", params });
}

/** Socket errors of a connection that was made and then broke (as opposed to never made). */
const BROKEN_CONNECTION_CODES = new Set([
  "ECONNRESET",
  "EPIPE",
  "ECONNABORTED",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);

/**
 * A failure below HTTP. Before the response (`responded` false) the request may be sent
 * again; after it, the reply had begun and a broken connection cut it off.
 */
export function connectionError(
  endpoint: ModelEndpoint,
  cause: unknown,
  how: { timedOut: boolean; responded: boolean },
): ModelError {
  const retry = how.responded ? undefined : { afterMs: undefined };
  const code = causeCode(cause);
  const params: Record<string, string> = { endpoint: endpoint.name };
  if (code !== undefined) params.detail = code;
  if (how.timedOut) return new ModelError("network", { code: "model.timeout", params }, retry);
  const broke = how.responded || (code !== undefined && BROKEN_CONNECTION_CODES.has(code));
  return new ModelError(
    "network",
    { code: broke ? "model.connectionLost" : "model.unreachable", params },
    retry,
  );
}

/**
 * Anything else a request threw: a connection that broke while the reply streamed (undici's
 * "terminated"), or a reply that could not be read.
 */
export function unexpectedError(
  endpoint: ModelEndpoint,
  error: unknown,
  responded: boolean,
): ModelError {
  const code = causeCode(error);
  if (responded && code !== undefined && BROKEN_CONNECTION_CODES.has(code)) {
    return connectionError(endpoint, error, { timedOut: false, responded });
  }
  // The client library's own words (a parse error) say nothing the person can act on.
  return new ModelError("bad_response", {
    code: "model.unreadable",
    params: { endpoint: endpoint.name },
  });
}

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = current.cause;
  }
  return undefined;
}

/**
 * Parses a tool call's assembled arguments; an empty string means "no arguments". Arguments
 * that cannot be read do not end the turn: the call gets `{}` and an error the model reads as
 * its result, so it can call again (as for an unknown tool or an input the schema refuses).
 */
export function parseToolInput(
  json: string,
  toolName: string,
  cutByOutputLimit: boolean,
): { input: unknown; inputError?: string } {
  if (json.trim() === "") return { input: {} };
  try {
    return { input: JSON.parse(json) };
  } catch (error) {
    const why = cutByOutputLimit
      ? "they were cut off where the reply reached its output limit"
      : `they are not valid JSON (${(error as Error).message})`;
    return {
      input: {},
      inputError: `${toolName} was not run: its arguments could not be read, ${why}. Call ${toolName} again with complete JSON arguments${cutByOutputLimit ? ", and keep them shorter" : ""}.`,
    };
  }
}

/** The stream ended before the model finished: its partial reply must not pass for an answer. */
export function cutOff(endpoint: ModelEndpoint): ModelError {
  return new ModelError("bad_response", {
    code: "model.cutOff",
    params: { endpoint: endpoint.name },
  });
}

/** The reply stream sent nothing for `idleMs` after it had started (StreamIdleWatch). */
export function stalled(endpoint: ModelEndpoint, idleMs: number): ModelError {
  return new ModelError("network", {
    code: "model.stalled",
    params: { endpoint: endpoint.name, seconds: String(Math.round(idleMs / 1000)) },
  });
}

/** A successful response whose body was no stream at all. */
export function noStream(endpoint: ModelEndpoint): ModelError {
  return new ModelError("bad_response", {
    code: "model.noStream",
    params: { endpoint: endpoint.name },
  });
}

export function toolCallWithoutName(): ModelError {
  return new ModelError("bad_response", { code: "model.toolCallWithoutName", params: {} });
}
