import { createHash } from "node:crypto";
import type { CallEnd } from "../sessions/userStepCall.ts";
import { CallSignal } from "./callSignal.ts";
import type { McpToolResult } from "./mcpTools.ts";
import { itemsOf, type OneOrMany, withItem } from "./oneOrMany.ts";

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
 * strings cost more than a kilobyte per waiting call and a plan's size for a plan review. Its
 * first 128 bits are kept: ample against collisions within one agent's session, half the
 * string of the whole digest per waiting call.
 */
export function callKey(sessionId: string, name: string, args: unknown): string {
  return createHash("sha256")
    .update(sessionId)
    .update("\u0000")
    .update(name)
    .update("\u0000")
    .update(canonicalJson(args))
    .digest()
    .subarray(0, 16)
    .toString("base64url");
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

/** A promise made for the call's result (a held request, tasks/result asked early). */
class Awaiting implements CallFollower {
  finished = false;
  readonly listening = true;

  constructor(
    private readonly resolve: (result: McpToolResult) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  callEnded(result: McpToolResult | undefined, error: unknown): void {
    this.finished = true;
    if (result) this.resolve(result);
    else this.reject(error);
  }
}

/**
 * One tool call an agent waits on; the HTTP requests that wait for it come and go (B3).
 * Plain data with methods on the prototype: nothing per call but the fields below. It is told
 * its result directly (issue 15: a promise with its reaction held ≈0.3 KB per waiting call).
 */
export class WaitingCall extends CallSignal implements CallEnd {
  /** How many requests (and MCP tasks) wait for it right now. */
  waiters = 0;
  /** The call's `tool.call` entry in the session log; its MCP task, if any, is named by it. */
  callId = "";
  private followers: OneOrMany<CallFollower>;
  /** Once it ended: its result, or why there is none. */
  private outcome: { result: McpToolResult | undefined; error: unknown } | undefined;

  /** Its own abort signal, the one its question waits under: no object of its own per call. */
  constructor(
    readonly tool: string,
    private readonly key: string,
    private readonly calls: WaitingCalls | undefined,
  ) {
    super();
  }

  /** The result, as a promise made when asked for. */
  get result(): Promise<McpToolResult> {
    return new Promise<McpToolResult>((resolve, reject) => {
      this.follow(new Awaiting(resolve, reject));
    });
  }

  /** Withdraws the call: its question is aborted. */
  cancel(reason: string): void {
    this.abort(reason);
  }

  /**
   * B3: whether a request besides `self` (one of the `waiters`) awaits the call and would hear
   * its answer. A followed request whose agent dropped its stream does not count: its agent has
   * moved on to a retry, or comes back to an answer or a withdrawal alike.
   */
  awaitedBesides(self: unknown): boolean {
    let others = this.waiters - 1;
    for (const follower of itemsOf(this.followers)) {
      if (follower !== self && !follower.finished && !follower.listening) others -= 1;
    }
    return others > 0;
  }

  /**
   * Told when the call ends, after the ones before it; a microtask later when it has ended,
   * as a promise reaction would be.
   */
  follow(follower: CallFollower): void {
    const outcome = this.outcome;
    if (outcome) {
      queueMicrotask(() => follower.callEnded(outcome.result, outcome.error));
      return;
    }
    this.followers = withItem(this.followers, follower);
  }

  ended(result: McpToolResult): void {
    this.end(result, undefined);
  }

  failed(error: unknown): void {
    this.end(undefined, error);
  }

  private end(result: McpToolResult | undefined, error: unknown): void {
    if (this.outcome) return;
    this.outcome = { result, error };
    this.calls?.forget(this.key, this);
    const followers = itemsOf(this.followers);
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

  /**
   * The waiting call, or a new one started with `start`, which tells the call its end. A
   * start that throws ends the call with that error.
   */
  join(
    sessionId: string,
    name: string,
    args: unknown,
    start: (signal: AbortSignal, call: WaitingCall) => void,
  ): WaitingCall {
    const key = callKey(sessionId, name, args);
    const existing = this.calls.get(key);
    if (existing) return existing;
    const call = new WaitingCall(name, key, this);
    // In the map first: a call that ends at once is forgotten, not left behind.
    this.calls.set(key, call);
    try {
      start(call.asAbortSignal(), call);
    } catch (error) {
      call.failed(error);
    }
    return call;
  }

  /** @internal the call ended. */
  forget(key: string, call: WaitingCall): void {
    if (this.calls.get(key) === call) this.calls.delete(key);
  }

  get size(): number {
    return this.calls.size;
  }
}
