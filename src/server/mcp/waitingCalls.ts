import { createHash } from "node:crypto";
import type { McpToolResult } from "./mcpTools.ts";

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
 * The key of a call: a digest, not the canonical JSON itself, which as a rope of concatenated
 * strings cost more than a kilobyte per waiting call and a plan's size for a plan review.
 */
export function callKey(sessionId: string, name: string, args: unknown): string {
  return createHash("sha256")
    .update(sessionId)
    .update("\u0000")
    .update(name)
    .update("\u0000")
    .update(canonicalJson(args))
    .digest("base64");
}

/**
 * One tool call an agent waits on; the HTTP requests that wait for it come and go (B3).
 * Plain data with methods on the prototype: nothing per call but the fields below.
 */
export class WaitingCall {
  readonly result: Promise<McpToolResult>;
  /** How many requests wait for it right now. */
  waiters = 0;
  private readonly controller = new AbortController();

  constructor(
    readonly tool: string,
    start: (signal: AbortSignal) => Promise<McpToolResult>,
  ) {
    this.result = start(this.controller.signal);
  }

  /** Withdraws the call: its question is aborted. */
  cancel(reason: string): void {
    this.controller.abort(reason);
  }
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
    const key = callKey(sessionId, name, args);
    const existing = this.calls.get(key);
    if (existing) return existing;
    const call = new WaitingCall(name, start);
    this.calls.set(key, call);
    call.result.then(
      () => this.forget(key, call),
      () => this.forget(key, call),
    );
    return call;
  }

  private forget(key: string, call: WaitingCall): void {
    if (this.calls.get(key) === call) this.calls.delete(key);
  }

  get size(): number {
    return this.calls.size;
  }
}
