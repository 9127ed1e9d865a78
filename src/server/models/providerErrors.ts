import { ModelError } from "./provider.ts";

/** Removes the key from any text that might reach the transcript. */
export function redact(text: string, secret: string | undefined): string {
  if (secret === undefined || secret.length < 4) return text;
  return text.split(secret).join("[redacted]");
}

/** The host of a base URL, without any user info or path, for error messages. */
export function endpointName(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return "the model server";
  }
}

/** What a caller of `complete()` sees after its signal fired: the signal's own reason. */
export function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The model request was cancelled.", "AbortError");
}

/** Maps an HTTP failure status to a transcript-ready error. */
export function errorForStatus(
  status: number,
  serverMessage: string | undefined,
  endpoint: string,
  secret: string | undefined,
): ModelError {
  if (status === 401 || status === 403) {
    // The server's own text can quote part of the key, so it is left out.
    return new ModelError(
      "auth",
      `${endpoint} refused the API key (HTTP ${status}). Check the key configured for this provider.`,
    );
  }
  const detail = serverMessage ? `: ${redact(serverMessage, secret)}` : "";
  if (status === 429) {
    return new ModelError(
      "rate_limit",
      `${endpoint} is rate limiting requests (HTTP 429)${detail}. Wait a moment and try again.`,
    );
  }
  if (status >= 500) {
    return new ModelError("network", `${endpoint} failed with HTTP ${status}${detail}.`);
  }
  return new ModelError(
    "bad_response",
    `${endpoint} rejected the request (HTTP ${status})${detail}.`,
  );
}

export function connectionError(endpoint: string, cause: unknown, timedOut: boolean): ModelError {
  if (timedOut) return new ModelError("network", `${endpoint} did not answer in time.`);
  const code = causeCode(cause);
  return new ModelError(
    "network",
    `Could not connect to ${endpoint}${code === undefined ? "" : ` (${code})`}. Is the server running?`,
  );
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
export function cutOff(endpoint: string): ModelError {
  return new ModelError(
    "bad_response",
    `${endpoint} stopped sending before the reply was finished (the connection closed mid-reply). Send the message again.`,
  );
}

/** The reply stream sent nothing for `idleMs` after it had started (StreamIdleWatch). */
export function stalled(endpoint: string, idleMs: number): ModelError {
  return new ModelError(
    "network",
    `${endpoint} sent nothing for ${Math.round(idleMs / 1000)} s in the middle of the reply, so it was given up. Send the message again.`,
  );
}
