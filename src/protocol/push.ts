import { z } from "zod/mini";

/** U3: what a page sends to have this device notified (its PushSubscription, as JSON). */
export const PushSubscribeBody = z.object({
  endpoint: z.url().check(z.maxLength(2000)),
  keys: z.object({
    p256dh: z
      .string()
      .check(
        z.regex(/^[A-Za-z0-9_-]{87}$/),
        z.describe("the device's P-256 public key, 65 bytes in base64url"),
      ),
    auth: z
      .string()
      .check(z.regex(/^[A-Za-z0-9_-]{22}$/), z.describe("the 16-byte auth secret in base64url")),
  }),
  deviceLabel: z.optional(z.string().check(z.maxLength(120))),
});
export type PushSubscribeBody = z.infer<typeof PushSubscribeBody>;

/** U3: a notification's action, sent by the service worker: the option label or the decision. */
export const PushActionBody = z.strictObject({
  interactionId: z.string().check(z.minLength(1), z.maxLength(200)),
  action: z.string().check(z.minLength(1), z.maxLength(120)),
  deviceLabel: z.optional(z.string().check(z.maxLength(120))),
});
export type PushActionBody = z.infer<typeof PushActionBody>;
