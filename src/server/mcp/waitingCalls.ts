import { createHash } from "node:crypto";
import { CallSignal } from "./callSignal.ts";
import type { McpToolResult } from "./mcpTools.ts";

/** R12: how deep tool arguments may nest (a plan review's comment anchors go 5 levels down). */
export const MAX_ARGUMENT_DEPTH = 64;

/** R12: arguments nested past the limit, refused before anything recurses over them. */
export class TooDeepError extends Error {
  constructor() {
    super(`arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels`);
  }
}

/** R12: whether `value` nests deeper than `max` arrays and objects, found without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const node = values.pop();
    const depth = depths.pop() as number;
    if (node === null || typeof node !== "object") continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/**
 * Canonical JSON, so the same arguments in another key order are the same call. Its recursion
 * stops at MAX_ARGUMENT_DEPTH (R12): a deeply nested body would otherwise overflow the stack.
 */
export function canonicalJson(value: unknown, depth = 0): string {
  if (value !== null && typeof value === "object" && depth >= MAX_ARGUMENT_DEPTH) {
    throw new TooDeepError();
  }
  if (Array.isArray(value))
    return `[${value.map((item) => canonicalJson(item, depth + 1)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key], depth + 1)}`)
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
 * Told once a waiting call ends (issue 15): a request the fast path holds follows its call as
 * data, not with a promise reaction (a promise, a reaction, closures and their context) each.
 */
export interface CallFollower {
  callEnded(result: McpToolResult | undefined, error: unknown): void;
  /** Ended: answered, cancelled or closed. */
  readonly finished: boolean;
  /** Its agent's stream is open, so the answer reaches it now (not dropped, B3). */
  readonly listening: boolean;
}

/**
 * One tool call an agent waits on; the HTTP requests that wait for it come and go (B3).
 * Plain data with methods on the prototype: nothing per call but the fields below.
 */
export class WaitingCall {
  readonly result: Promise<McpToolResult>;
  /** How many requests (and MCP tasks) wait for it right now. */
  waiters = 0;
  /** The call's `tool.call` entry in the session log; its MCP task, if any, is named by it. */
  callId = "";
  private readonly signal = new CallSignal();
  /** Mostly one: held as is, not in an array. */
  private followers: CallFollower | CallFollower[] | undefined;

  constructor(
    readonly tool: string,
    start: (signal: AbortSignal, call: WaitingCall) => Promise<McpToolResult>,
  ) {
    this.result = start(this.signal.asAbortSignal(), this);
  }

  /** Withdraws the call: its question is aborted. */
  cancel(reason: string): void {
    this.signal.abort(reason);
  }

  /**
   * B3: whether a request besides `self` (one of the `waiters`) awaits the call and would hear
   * its answer. A followed request whose agent dropped its stream does not count: its agent has
   * moved on to a retry, or comes back to an answer or a withdrawal alike.
   */
  awaitedBesides(self: unknown): boolean {
    let others = this.waiters - 1;
    for (const follower of [this.followers ?? []].flat()) {
      if (follower !== self && !follower.finished && !follower.listening) others -= 1;
    }
    return others > 0;
  }

  /** Told when the call ends, after the calls before it, as promise reactions would be. */
  follow(follower: CallFollower): void {
    // Concatenated: a pushed-to or spread array keeps room for 17 (≈150 B).
    this.followers =
      this.followers === undefined ? follower : [this.followers].flat().concat(follower);
  }

  /** @internal WaitingCalls tells it once the result settles. */
  ended(result: McpToolResult | undefined, error: unknown): void {
    const followers = [this.followers ?? []].flat();
    this.followers = undefined;
    for (const follower of followers) follower.callEnded(result, error);
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
    start: (signal: AbortSignal, call: WaitingCall) => Promise<McpToolResult>,
  ): WaitingCall {
    const key = callKey(sessionId, name, args);
    const existing = this.calls.get(key);
    if (existing) return existing;
    const call = new WaitingCall(name, start);
    this.calls.set(key, call);
    // One reaction per call, for its forgetting and its followers. Functions passed as they
    // are, not named by a const: tsx would give each one a name property (≈0.3 KB) per call.
    call.result.then(
      (result) => this.end(key, call, result, undefined),
      (error: unknown) => this.end(key, call, undefined, error),
    );
    return call;
  }

  private end(key: string, call: WaitingCall, result: McpToolResult | undefined, error: unknown) {
    if (this.calls.get(key) === call) this.calls.delete(key);
    call.ended(result, error);
  }

  get size(): number {
    return this.calls.size;
  }
}
