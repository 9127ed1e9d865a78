import type { PushSubscriptionRecord } from "./subscriptionStore.ts";
import type { VapidKeys } from "./vapidKeys.ts";

export type PushResult = "sent" | "gone" | "failed";

/**
 * U3: one encrypted (aes128gcm) and VAPID-signed push to one device. web-push builds the
 * request; it is sent with fetch, so a loopback endpoint in tests takes the same path.
 */
export async function sendPush(
  subscription: PushSubscriptionRecord,
  payload: unknown,
  vapid: VapidKeys & { subject: string },
): Promise<PushResult> {
  // Loaded on the first push, not at every start (it brings its own crypto and ASN.1 code).
  const { default: webPush } = await import("web-push");
  const request = webPush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: subscription.keys },
    JSON.stringify(payload),
    {
      vapidDetails: vapid,
      TTL: 600,
      contentEncoding: "aes128gcm",
      urgency: "high",
    },
  );
  try {
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: new Uint8Array(request.body as Buffer),
      signal: AbortSignal.timeout(10_000),
      // A push service answers itself; a redirect would steer plangate somewhere else.
      redirect: "error",
    });
    if (response.status === 404 || response.status === 410) return "gone";
    return response.ok ? "sent" : "failed";
  } catch {
    return "failed";
  }
}
