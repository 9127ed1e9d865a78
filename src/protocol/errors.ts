import { z } from "zod/mini";

/** Codes of `error` frames: something about a frame or request was wrong. */
export const ErrorCode = z.enum([
  "BAD_JSON",
  "BAD_FRAME",
  "UNKNOWN_TYPE",
  "TOO_LARGE",
  "UNAUTHORIZED",
  "PROTOCOL_MISMATCH",
  "NOT_HELLO",
  "SESSION_NOT_FOUND",
  "SESSION_BUSY",
  "BAD_MODE",
  "BAD_MODEL",
  "STORAGE_FAILED",
  "INTERNAL",
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** Codes of a rejected `receipt`: the answer or cancel changed nothing (R3). */
export const ReceiptCode = z.enum([
  "UNKNOWN_INTERACTION",
  "NOT_PENDING",
  "ALREADY_ANSWERED",
  "INVALID_ANSWER",
  /** V8: an approval named a plan revision other than the one under review. */
  "PLAN_CHANGED",
  "WRONG_KIND",
  "STORAGE_FAILED",
]);
export type ReceiptCode = z.infer<typeof ReceiptCode>;
