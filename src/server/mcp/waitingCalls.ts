import type { McpToolResult } from "./mcpTools.ts";

/** One tool call an agent waits on; the HTTP requests that wait for it come and go (B3). */
export interface WaitingCall {
  readonly result: Promise<McpToolResult>;
  /** Withdraws the call: its question is aborted. */
  cancel(reason: string): void;
  /** How many requests wait for it right now. */
  waiters: number;
}

/** Canonical JSON, so the same arguments in another key order are the same call. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * B3: calls still waiting, by plangate session, tool and arguments. An identical call from the
 * same agent while one waits joins it instead of opening a second card.
 */
export class WaitingCalls {
  private readonly calls = new Map<string, WaitingCall>();

  join(
    sessionId: string,
    name: string,
    args: unknown,
    start: (signal: AbortSignal) => Promise<McpToolResult>,
  ): WaitingCall {
    const key = `${sessionId}\u0000${name}\u0000${canonicalJson(args)}`;
    const existing = this.calls.get(key);
    if (existing) return existing;
    const controller = new AbortController();
    const result = start(controller.signal);
    const call: WaitingCall = {
      result,
      waiters: 0,
      cancel: (reason) => controller.abort(reason),
    };
    this.calls.set(key, call);
    const forget = () => {
      if (this.calls.get(key) === call) this.calls.delete(key);
    };
    result.then(forget, forget);
    return call;
  }

  get size(): number {
    return this.calls.size;
  }
}
