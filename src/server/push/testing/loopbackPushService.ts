import { createECDH, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as ece from "http_ece";
import type { PushSubscriptionRecord } from "../subscriptionStore.ts";

export interface ReceivedPush {
  headers: Record<string, string | string[] | undefined>;
  /** The payload as the device would read it after decrypting. */
  payload: unknown;
}

/**
 * Test-only: a push service on 127.0.0.1 with one subscribed "device". It keeps the device's
 * private key and auth secret, so it can decrypt every aes128gcm message it receives.
 */
export async function startLoopbackPushService() {
  const device = createECDH("prime256v1");
  device.generateKeys();
  const authSecret = randomBytes(16).toString("base64url");
  const received: ReceivedPush[] = [];
  const waiters: (() => void)[] = [];
  let status = 201;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const plain = ece.decrypt(Buffer.concat(chunks), {
        version: "aes128gcm",
        privateKey: device,
        authSecret,
      });
      received.push({ headers: request.headers, payload: JSON.parse(plain.toString("utf8")) });
      for (const wake of waiters.splice(0)) wake();
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const subscription: PushSubscriptionRecord = {
    endpoint: `http://127.0.0.1:${port}/push/device-1`,
    keys: { p256dh: device.getPublicKey("base64url"), auth: authSecret },
    deviceLabel: "Chrome on Android",
  };
  return {
    subscription,
    received,
    /** The status the service answers with from now on (410 = the device unsubscribed). */
    answerWith(next: number) {
      status = next;
    },
    async next(count: number, timeoutMs = 5_000): Promise<ReceivedPush> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`no push #${count} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return received[count - 1] as ReceivedPush;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
