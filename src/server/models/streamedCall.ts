import type { ModelError, ModelRequest } from "./provider.ts";
import { abortError, type ModelEndpoint, stalled } from "./providerErrors.ts";
import { DEFAULT_MAX_RETRIES, withRetries } from "./retries.ts";
import { STREAM_IDLE_MS, StreamIdleWatch } from "./streamIdle.ts";

export interface StreamedCall<S, T> {
  readonly endpoint: ModelEndpoint;
  readonly maxRetries: number | undefined;
  readonly streamIdleMs: number | undefined;
  /** Sends the request; resolves once the response has begun. */
  open(signal: AbortSignal): Promise<S>;
  /** Reads the stream to its end; `watch.beat()` on each event. */
  read(stream: S, watch: StreamIdleWatch): Promise<T>;
  /** A vendor's failure as a ModelError; `responded`: it came after the response had begun. */
  toModelError(error: unknown, responded: boolean): ModelError;
}

/**
 * One model request as both providers make it: each attempt watched for a stalled stream, its
 * failures told apart (stalled, stopped, or the vendor's error), and sent again by withRetries.
 */
export function streamedCall<S, T>(request: ModelRequest, call: StreamedCall<S, T>): Promise<T> {
  const attempt = async (): Promise<T> => {
    const watch = new StreamIdleWatch(call.streamIdleMs ?? STREAM_IDLE_MS, request.signal);
    let responded = false;
    try {
      const stream = await call.open(watch.signal);
      responded = true;
      const result = await call.read(stream, watch);
      // The SDKs end an aborted stream quietly; the catch says whether it stalled or was stopped.
      watch.signal.throwIfAborted();
      return result;
    } catch (error) {
      if (watch.timedOut) throw stalled(call.endpoint, watch.idleMs);
      if (request.signal.aborted) throw abortError(request.signal);
      throw call.toModelError(error, responded);
    } finally {
      watch.stop();
    }
  };
  return withRetries(attempt, {
    maxRetries: call.maxRetries ?? DEFAULT_MAX_RETRIES,
    signal: request.signal,
    endpoint: call.endpoint,
    onNotice: request.onNotice,
  });
}
