import type { TurnNotice } from "../../shared/turnNotices.ts";
import { ModelError } from "./provider.ts";
import { abortError, type ModelEndpoint } from "./providerErrors.ts";

/** As the vendors' SDKs: two more tries, so a brief overload or one dropped connection passes. */
export const DEFAULT_MAX_RETRIES = 2;

export interface RetryOptions {
  /** How many times a failed request is sent again. */
  readonly maxRetries: number;
  readonly signal: AbortSignal;
  readonly endpoint: ModelEndpoint;
  /** Hears each wait before it starts, so the person sees why nothing happens (W2, M1). */
  readonly onNotice?: ((notice: TurnNotice) => void) | undefined;
}

/**
 * Sends a request again while it fails in a way worth retrying (a rate limit, an overloaded or
 * failing server, no connection), after the wait the server asks for or a backoff. The vendors'
 * SDKs retry silently; here each wait is a notice, and Stop ends it at once.
 */
export async function withRetries<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  for (let retries = 0; ; retries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ModelError) || error.retry === undefined) throw error;
      if (retries >= options.maxRetries) throw error;
      const waitMs = error.retry.afterMs ?? backoffMs(retries);
      options.onNotice?.(retryNotice(error, options.endpoint, waitMs));
      await pause(waitMs, options.signal);
    }
  }
}

/** The SDKs' backoff without their jitter: 0.5 s, doubling, at most 8 s. */
export function backoffMs(retries: number): number {
  return Math.min(500 * 2 ** retries, 8_000);
}

function retryNotice(error: ModelError, endpoint: ModelEndpoint, waitMs: number): TurnNotice {
  const code =
    error.kind === "rate_limit"
      ? "model.retryRateLimited"
      : error.kind === "overloaded"
        ? "model.retryOverloaded"
        : "model.retry";
  const seconds = String(Math.max(1, Math.ceil(waitMs / 1000)));
  const { detail, serverSaid } = error.notice.params;
  return {
    code,
    params: {
      endpoint: endpoint.name,
      seconds,
      ...(detail === undefined ? {} : { detail }),
      ...(serverSaid === undefined ? {} : { serverSaid }),
    },
  };
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError(signal));
      return;
    }
    const stop = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal.addEventListener("abort", stop, { once: true });
  });
}
