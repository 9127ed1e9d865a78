import type { IncomingMessage } from "node:http";

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_RAW_HEADERS: string[] = Object.freeze([]) as unknown as string[];

/**
 * Issue 15: a call the fast path holds keeps its request open until the user answers, and with
 * it the request's headers (their text twice: as a list and as an object, ≈1 KB), which were
 * read before the call was taken in and are not read again.
 */
export function releaseHeaders(request: IncomingMessage): void {
  request.headers = NO_HEADERS;
  request.rawHeaders = NO_RAW_HEADERS;
}
