import { deviceLabel } from "../device/deviceIdentity.ts";

export type PushSubscribeResult = "subscribed" | "unsupported" | "denied" | "failed";

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (char) => char.charCodeAt(0));
}

/**
 * U3: asks this browser for notifications, subscribes it with the server's VAPID key and
 * registers the subscription. Needs https or loopback, and a browser with a push service.
 */
export async function subscribeToPush(
  env: { navigator: Navigator; fetch: typeof fetch; Notification?: typeof Notification } = {
    navigator,
    fetch: (...args) => fetch(...args),
    Notification: globalThis.Notification,
  },
): Promise<PushSubscribeResult> {
  if (!("serviceWorker" in env.navigator) || !env.Notification) return "unsupported";
  if ((await env.Notification.requestPermission()) !== "granted") return "denied";
  try {
    const registration = await env.navigator.serviceWorker.ready;
    const { publicKey } = (await (await env.fetch("/push/key")).json()) as { publicKey: string };
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(publicKey),
    });
    const response = await env.fetch("/push/subscribe", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        ...subscription.toJSON(),
        deviceLabel: deviceLabel(env.navigator.userAgent),
      }),
    });
    return response.ok ? "subscribed" : "failed";
  } catch {
    return "failed";
  }
}
