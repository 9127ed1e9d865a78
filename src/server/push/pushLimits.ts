import { isLoopbackHost } from "../http/reach.ts";
import type { PushPayload } from "./pushNotifier.ts";

/** Devices one plangate notifies at most; a new one beyond it is refused, not rotated in. */
export const MAX_PUSH_SUBSCRIPTIONS = 20;
/** Push services take about 4 KB of payload; the encrypted record adds its own bytes. */
export const MAX_PUSH_PAYLOAD_BYTES = 3_000;
/** A subscribe or action body is a few hundred bytes; anything much larger is not one. */
export const PUSH_BODY_LIMIT_BYTES = 8 * 1024;

/**
 * U3: where plangate may send pushes. A push service is always https on a name; the server
 * POSTs to whatever a page subscribed, so anything else (plain http, an IP address, localhost,
 * a user:password) would let a page make plangate call into the local network. Tests allow a
 * loopback push service explicitly.
 */
export function pushEndpointProblem(endpoint: string, allowLoopback: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "the endpoint is not a URL";
  }
  if (url.username || url.password) return "the endpoint cannot carry credentials";
  const host = url.hostname;
  if (allowLoopback && url.protocol === "http:" && isLoopbackHost(host)) return undefined;
  if (url.protocol !== "https:") return "the endpoint must be https";
  if (isLoopbackHost(host) || /^[\d.]+$/.test(host) || host.startsWith("["))
    return "the endpoint must name a push service, not an address";
  if (!host.includes(".")) return "the endpoint must name a push service, not a local host";
  return undefined;
}

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

/** U3: the notification stays within what every push service accepts, whatever was asked. */
export function fitPayload(payload: PushPayload): PushPayload {
  const fitted: PushPayload = {
    ...payload,
    agent: clip(payload.agent, 80),
    sessionTitle: clip(payload.sessionTitle, 100),
    text: clip(payload.text, 400),
  };
  if (Buffer.byteLength(JSON.stringify(fitted)) <= MAX_PUSH_PAYLOAD_BYTES) return fitted;
  // Long option labels: the notification still opens the card, where the answer is given.
  return { ...fitted, actions: [] };
}
