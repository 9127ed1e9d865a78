import type { McpToolResult } from "./mcpTools.ts";
import {
  callKey,
  canonicalJson,
  MAX_ARGUMENT_DEPTH,
  nestsDeeperThan,
  type WaitingCall,
  WaitingCalls,
} from "./waitingCalls.ts";

describe("waiting calls (B3)", () => {
  it("[B3] the same call, arguments in any key order, joins the one waiting; another call starts its own; a finished one is forgotten", async () => {
    const calls = new WaitingCalls();
    let finish: ((result: McpToolResult) => void) | undefined;
    let starts = 0;
    const start = (_signal: AbortSignal, call: WaitingCall) => {
      starts += 1;
      finish = (result) => call.ended(result);
    };
    const first = calls.join("sess_1", "ask", { a: 1, b: [1, { c: 2, d: 3 }] }, start);
    const same = calls.join("sess_1", "ask", { b: [1, { d: 3, c: 2 }], a: 1 }, start);
    expect(same).toBe(first);
    const other = calls.join("sess_2", "ask", { a: 1, b: [1, { c: 2, d: 3 }] }, (_signal, call) =>
      call.ended({ output: "elsewhere" }),
    );
    expect(other).not.toBe(first);
    expect(starts).toBe(1);
    finish?.({ output: "done" });
    expect(await same.result).toEqual({ output: "done" });
    await other.result;
    expect(calls.size).toBe(0);
  });

  it("[B3] cancelling aborts the one signal its run was given", () => {
    const calls = new WaitingCalls();
    let seen: AbortSignal | undefined;
    const call = calls.join("sess_1", "ask", {}, (signal) => {
      seen = signal;
    });
    call.cancel("the agent cancelled the call");
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe("the agent cancelled the call");
  });

  it("[B3] a waiting call is keyed by a digest of its arguments, so a 200 KB plan is not held a second time", () => {
    const plan = "# Plan\n".padEnd(200_000, "x");
    const key = callKey("sess_1", "review_plan", { plan });
    expect(key.length).toBeLessThan(64);
    expect(callKey("sess_1", "review_plan", { plan })).toBe(key);
    expect(callKey("sess_1", "review_plan", { plan: `${plan}y` })).not.toBe(key);
    expect(callKey("sess_2", "review_plan", { plan })).not.toBe(key);
    expect(callKey("sess_1", "ask_user_question", { plan })).not.toBe(key);
  });

  it("[R12] arguments nested 100,000 deep get a clear error, not a stack overflow; legitimate depth is keyed as before", () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => canonicalJson({ questions: deep })).toThrow(/deeper than \d+ levels/);
    expect(() => callKey("sess_1", "ask", { questions: deep })).toThrow(/deeper than/);
    let atLimit: unknown = 1;
    for (let i = 0; i < MAX_ARGUMENT_DEPTH; i++) atLimit = [atLimit];
    expect(canonicalJson(atLimit)).toBe(
      `${"[".repeat(MAX_ARGUMENT_DEPTH)}1${"]".repeat(MAX_ARGUMENT_DEPTH)}`,
    );
    expect(nestsDeeperThan(atLimit, MAX_ARGUMENT_DEPTH)).toBe(false);
    expect(nestsDeeperThan([atLimit], MAX_ARGUMENT_DEPTH)).toBe(true);
    expect(nestsDeeperThan({ questions: deep }, MAX_ARGUMENT_DEPTH)).toBe(true);
  });

  it("[B3] a call's followers hear its end once, in order, after it left the waiting calls; a failure is told as its error", async () => {
    const calls = new WaitingCalls();
    let finish: ((result: McpToolResult) => void) | undefined;
    const call = calls.join("sess_1", "ask", {}, (_signal, started) => {
      finish = (result) => started.ended(result);
    });
    const heard: string[] = [];
    const follower = (name: string) => ({
      finished: false,
      listening: true,
      callEnded: (result: McpToolResult | undefined, error: unknown) => {
        heard.push(`${name}:${result?.output ?? String(error)}:${calls.size}`);
      },
    });
    call.follow(follower("first"));
    call.follow(follower("second"));
    finish?.({ output: "done" });
    await call.result;
    await Promise.resolve();
    expect(heard).toEqual(["first:done:0", "second:done:0"]);

    const failing = calls.join("sess_1", "ask", { other: true }, () => {
      throw new Error("the log refused it");
    });
    failing.follow(follower("third"));
    await failing.result.catch(() => {});
    await Promise.resolve();
    expect(heard.at(-1)).toBe("third:Error: the log refused it:0");
  });

  it("[B3] a call that ends as it starts is not left waiting, and a request that follows it afterwards still hears its end", async () => {
    const calls = new WaitingCalls();
    const refused = calls.join("sess_1", "ask", {}, (_signal, call) =>
      call.ended({ output: "The input for ask is invalid", isError: true }),
    );
    expect(calls.size).toBe(0);
    const heard: string[] = [];
    refused.follow({
      finished: false,
      listening: true,
      callEnded: (result) => heard.push(result?.output ?? "none"),
    });
    expect(heard).toEqual([]);
    await Promise.resolve();
    expect(heard).toEqual(["The input for ask is invalid"]);
    expect(await refused.result).toEqual({ output: "The input for ask is invalid", isError: true });
    // The same call again is a new one, not the ended one.
    let starts = 0;
    const again = calls.join("sess_1", "ask", {}, () => {
      starts += 1;
    });
    expect(again).not.toBe(refused);
    expect(starts).toBe(1);
    expect(calls.size).toBe(1);
  });

  it("[B3] a call is awaited besides one request only by another that can hear its answer", () => {
    const calls = new WaitingCalls();
    const call = calls.join("sess_1", "ask", {}, () => {});
    const request = (listening: boolean) => ({ finished: false, listening, callEnded() {} });
    const mine = request(true);
    call.waiters = 1;
    call.follow(mine);
    expect(call.awaitedBesides(mine)).toBe(false);
    const dropped = request(false);
    call.waiters = 2;
    call.follow(dropped);
    expect(call.awaitedBesides(mine)).toBe(false);
    // A request the SDK holds (no follower) always counts.
    call.waiters = 3;
    expect(call.awaitedBesides(mine)).toBe(true);
    // Mine, the dropped one and another fast request that listens.
    const other = calls.join("sess_1", "ask", { other: true }, () => {});
    for (const follower of [mine, dropped, request(true)]) other.follow(follower);
    other.waiters = 3;
    expect(other.awaitedBesides(mine)).toBe(true);
    expect(other.awaitedBesides(dropped)).toBe(true);
  });
});
