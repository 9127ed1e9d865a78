import { z } from "zod/mini";

/** U4: the browser a person answers from: an id kept in its storage and a readable label. */
export const DeviceInfo = z.strictObject({
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  label: z.string().check(z.minLength(1), z.maxLength(120)),
});
export type DeviceInfo = z.infer<typeof DeviceInfo>;

/** U4: who gave an answer, kept on its outcome and shown in the transcript. */
export const AnsweredBy = z.strictObject({
  deviceId: z.string().check(z.maxLength(100)),
  label: z.string().check(z.maxLength(120)),
  person: z.optional(
    z.string().check(z.maxLength(40), z.describe("the named access token's owner (S3)")),
  ),
  via: z.optional(
    z.enum(["notification"]).check(z.describe("set when a notification's action gave it (U3)")),
  ),
});
export type AnsweredBy = z.infer<typeof AnsweredBy>;
