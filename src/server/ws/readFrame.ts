import { z } from "zod";
import { ClientFrame, type ErrorCode } from "../../protocol/index.ts";

// The wire schemas are zod/mini, which carries no messages of its own; use English ones.
z.config(z.locales.en());

const knownTypes: ReadonlySet<unknown> = ClientFrame._zod.propValues.type ?? new Set();

export type FrameReading =
  | { ok: true; frame: ClientFrame }
  | { ok: false; code: ErrorCode; message: string; ref?: string };

/** R2: decode and validate one text frame; every failure is a readable error, never a throw. */
export function readClientFrame(text: string): FrameReading {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      code: "BAD_JSON",
      message: `The frame is not JSON: ${(error as Error).message}`,
    };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return {
      ok: false,
      code: "BAD_FRAME",
      message: "A frame must be a JSON object with a `type`.",
    };
  }
  const type = (data as { type?: unknown }).type;
  if (typeof type !== "string") {
    return { ok: false, code: "BAD_FRAME", message: "The frame has no string `type`." };
  }
  if (!knownTypes.has(type)) {
    return { ok: false, code: "UNKNOWN_TYPE", message: `Unknown frame type "${type}".`, ref: type };
  }
  const parsed = ClientFrame.safeParse(data);
  if (!parsed.success) {
    return {
      ok: false,
      code: "BAD_FRAME",
      message: `Invalid ${type} frame:\n${z.prettifyError(parsed.error)}`,
      ref: type,
    };
  }
  return { ok: true, frame: parsed.data };
}
