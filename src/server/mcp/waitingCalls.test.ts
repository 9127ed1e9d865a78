import type { McpToolResult } from "./mcpTools.ts";
import { callKey, WaitingCalls } from "./waitingCalls.ts";

describe("waiting calls (B3)", () => {
  it("[B3] the same call, arguments in any key order, joins the one waiting; another call starts its own; a finished one is forgotten", async () => {
    const calls = new WaitingCalls();
    let finish: ((result: McpToolResult) => void) | undefined;
    let starts = 0;
    const start = () => {
      starts += 1;
      return new Promise<McpToolResult>((resolve) => {
        finish = resolve;
      });
    };
    const first = calls.join("sess_1", "ask", { a: 1, b: [1, { c: 2, d: 3 }] }, start);
    const same = calls.join("sess_1", "ask", { b: [1, { d: 3, c: 2 }], a: 1 }, start);
    expect(same).toBe(first);
    const other = calls.join("sess_2", "ask", { a: 1, b: [1, { c: 2, d: 3 }] }, () =>
      Promise.resolve({ output: "elsewhere" }),
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
      return new Promise<McpToolResult>(() => {});
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
});
