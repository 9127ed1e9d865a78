import { z } from "zod";
import { ClientFrame, type ErrorCode } from "../../protocol/index.ts";

// The wire schemas are zod/mini, which carries no messages of its own; use English ones.
z.config(z.locales.en());

const knownTypes: ReadonlySet<unknown> = ClientFrame._zod.propValues.type ?? new Set();

/**
 * R12: no real frame comes near this many JSON values (a hello resumes at most 100 sessions,
 * an answer covers a few questions); validating a megabyte of tiny invalid values, and
 * describing every one, would hold the server for seconds.
 */
export const MAX_FRAME_VALUES = 2_000;
/** R12: an error frame names the first few problems, never all of a hostile frame's. */
const MAX_REPORTED_ISSUES = 10;

function exceedsValues(data: unknown, limit: number): boolean {
  const pending: unknown[] = [data];
  let count = 0;
  while (pending.length > 0) {
    const value = pending.pop();
    if (++count > limit) return true;
    const children = Array.isArray(value)
      ? value
      : typeof value === "object" && value !== null
        ? Object.values(value)
        : [];
    // Counted before they are pushed: spreading a 480,000-value array as arguments overflows the stack.
    if (count + pending.length + children.length > limit) return true;
    for (const child of children) pending.push(child);
  }
  return false;
}

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
  if (exceedsValues(data, MAX_FRAME_VALUES)) {
    return {
      ok: false,
      code: "BAD_FRAME",
      message: `Invalid ${type} frame: it holds more than ${MAX_FRAME_VALUES} values.`,
      ref: type,
    };
  }
  const parsed = ClientFrame.safeParse(data);
  if (!parsed.success) {
    const { issues } = parsed.error;
    const shown = new z.ZodError(issues.slice(0, MAX_REPORTED_ISSUES));
    const more = issues.length - MAX_REPORTED_ISSUES;
    return {
      ok: false,
      code: "BAD_FRAME",
      message: `Invalid ${type} frame:\n${z.prettifyError(shown)}${more > 0 ? `\n(and ${more} more problems)` : ""}`,
      ref: type,
    };
  }
  return { ok: true, frame: parsed.data };
}
