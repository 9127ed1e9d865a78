import type { SessionEntry, StoredEntry } from "../../protocol/index.ts";
import { CallSteps } from "../sessions/callSteps.ts";
import {
  colourQuestion,
  createHarness,
  DEADLINE_MS,
  featuresQuestion,
  flush,
  type Harness,
} from "./registryHarness.ts";

/** A server that starts `downMs` after `before` stopped, with the same log. */
function restart(before: Harness, downMs: number, options: { autoContinue?: boolean } = {}) {
  before.registry.close();
  const after = createHarness({ start: before.clock.now() + downMs, ...options });
  after.registry.restore("sess_1", before.stored("sess_1"));
  return after;
}

function ask(h: Harness, toolCallId: string) {
  return h.registry.askQuestions(
    "sess_1",
    { toolName: "AskUserQuestion", toolCallId, questions: [colourQuestion] },
    new AbortController().signal,
  );
}

/** What the re-run call reads (A7, Q5): its step as the log across both runs holds it. */
function loggedStep(before: Harness, after: Harness, toolCallId: string) {
  return CallSteps.fromEntries([...before.stored("sess_1"), ...after.stored("sess_1")]).of(
    toolCallId,
  );
}

describe("restore after a restart", () => {
  it("[A7] a counting head with time left gets its timer back for the remaining time", async () => {
    const before = createHarness();
    const asked = before.ask("sess_1", [colourQuestion], "AskUserQuestion", undefined, "call_a");
    const countdown = before.countdownsFor(asked.interactionId)[0];
    before.clock.advance(2_000);
    const after = restart(before, 1_000);

    expect(after.log).toHaveLength(0);
    expect(after.registry.pending("sess_1")).toEqual([
      {
        request: expect.objectContaining({ interactionId: asked.interactionId }),
        countdown,
        queueOrder: 0,
      },
    ]);
    after.clock.advance(DEADLINE_MS - 3_000 - 1);
    expect(after.resolvedFor(asked.interactionId)).toEqual([]);
    after.clock.advance(1);
    expect(after.entries("sess_1")).toEqual([
      {
        kind: "interaction.resolved",
        interactionId: asked.interactionId,
        outcome: { type: "answered", answers: {}, auto: true },
      },
    ]);
  });

  it("[A5][A7] a counting head restored with auto-continue off is paused, once the log takes the pause it first refused", async () => {
    const before = createHarness();
    const asked = before.ask("sess_1", [colourQuestion], "AskUserQuestion", undefined, "call_a");
    before.registry.close();
    const after = createHarness({ start: before.clock.now() + 1_000, autoContinue: false });
    after.failWrites(true);
    after.registry.restore("sess_1", before.stored("sess_1"));
    after.failWrites(false);
    expect(after.registry.pending("sess_1")[0]?.countdown.phase).toBe("counting");

    after.clock.advance(1_000);
    await flush();
    expect(after.countdownsFor(asked.interactionId)).toEqual([
      { phase: "paused", pausedAt: after.clock.now() },
    ]);
    expect(after.registry.pending("sess_1")[0]?.countdown.phase).toBe("paused");
    expect(asked.outcomes).toEqual([]);
  });

  it("[A7] a deadline that passed while the server was down resolves at start-up", async () => {
    const before = createHarness();
    const asked = before.ask("sess_1", [colourQuestion], "AskUserQuestion", undefined, "call_a");
    const queued = before.ask("sess_1", [featuresQuestion], "AskUserQuestion", undefined, "call_b");
    const after = restart(before, DEADLINE_MS * 2);

    expect(after.resolvedFor(asked.interactionId)).toEqual([
      {
        kind: "interaction.resolved",
        interactionId: asked.interactionId,
        outcome: { type: "answered", answers: {}, auto: true },
      },
    ]);
    expect(after.countdownsFor(queued.interactionId)[0]).toMatchObject({
      phase: "counting",
      startedAt: after.clock.now(),
    });
    // The re-run call runs from the logged answer; nothing of it waits in the registry.
    expect(loggedStep(before, after, "call_a")).toEqual({
      kind: "question",
      outcome: { type: "answered", answers: {}, auto: true },
    });
    expect(after.registry.pending("sess_1").map((view) => view.request.toolCallId)).toEqual([
      "call_b",
    ]);
    expect(after.kinds()).not.toContain("interaction.requested");
  });

  it("[A7] the re-run asker adopts the restored interaction by its toolCallId", async () => {
    const before = createHarness();
    const asked = before.ask("sess_1", [colourQuestion], "AskUserQuestion", undefined, "call_a");
    const after = restart(before, 10);

    const outcomes: unknown[] = [];
    void ask(after, "call_a").then((outcome) => outcomes.push(outcome));
    expect(after.kinds()).not.toContain("interaction.requested");
    expect(after.registry.pendingCount("sess_1")).toBe(1);
    const red = { [colourQuestion.question]: { labels: ["Red"] } };
    expect(after.registry.answer(asked.interactionId, red)).toEqual({ ok: true });
    await flush();
    expect(outcomes).toEqual([{ type: "answered", answers: red, auto: false }]);
  });

  it("[A7] an answer given after the restart, before the call re-runs, is logged as the call's step", async () => {
    const before = createHarness();
    const asked = before.ask("sess_1", [colourQuestion], "AskUserQuestion", undefined, "call_a");
    const after = restart(before, 10);
    expect(after.registry.cancel(asked.interactionId)).toEqual({ ok: true });
    expect(after.kinds()).toEqual(["interaction.resolved"]);
    expect(loggedStep(before, after, "call_a")).toEqual({
      kind: "question",
      outcome: { type: "cancelled" },
    });
    expect(after.registry.pendingCount("sess_1")).toBe(0);
  });

  it("[A7] an outcome logged without a tool result is the call's step, and is not answered again", async () => {
    const before = createHarness();
    const asked = before.ask("sess_1", [colourQuestion], "AskUserQuestion", undefined, "call_a");
    before.registry.answer(asked.interactionId, {});
    const after = restart(before, 10);
    expect(loggedStep(before, after, "call_a")).toEqual({
      kind: "question",
      outcome: { type: "answered", answers: {}, auto: false },
    });
    expect(after.registry.answer(asked.interactionId, {})).toMatchObject({
      code: "ALREADY_ANSWERED",
    });
  });

  it("[A7] a tool call that already has its result asks anew", async () => {
    const before = createHarness();
    const asked = before.ask("sess_1", [colourQuestion], "AskUserQuestion", undefined, "call_a");
    before.registry.answer(asked.interactionId, {});
    const log: StoredEntry[] = [
      ...before.stored("sess_1"),
      {
        seq: 99,
        at: before.clock.now(),
        entry: {
          kind: "tool.result",
          callId: "call_a",
          name: "AskUserQuestion",
          isError: false,
          output: "",
        },
      },
    ];
    const after = createHarness({ start: before.clock.now() });
    after.registry.restore("sess_1", log);
    expect(CallSteps.fromEntries(log).of("call_a")).toBeUndefined();
    void ask(after, "call_a");
    expect(after.kinds()).toEqual(["interaction.requested", "interaction.countdown"]);
  });

  it("[A7] a restored permission is adopted by its own kind only", async () => {
    const before = createHarness();
    const permission = before.askPermission("sess_1", undefined, "call_p");
    const after = restart(before, 10);
    const outcomes: unknown[] = [];
    void after.registry
      .askPermission(
        "sess_1",
        { toolName: "Bash", toolCallId: "call_p", summary: "rm", input: {} },
        new AbortController().signal,
      )
      .then((outcome) => outcomes.push(outcome));
    after.registry.decide(permission.interactionId, "allow_once");
    await flush();
    expect(outcomes).toEqual([{ type: "decided", decision: "allow_once" }]);
    expect(after.kinds()).toEqual(["interaction.resolved"]);
  });

  it("[A6][A7] restores queue order, paused countdowns and drafts exactly", () => {
    const before = createHarness();
    const first = before.ask("sess_1");
    const second = before.ask("sess_1", [featuresQuestion]);
    before.clock.advance(300);
    const draft = { page: 0, picks: { [colourQuestion.question]: ["Red"] }, other: {} };
    before.registry.saveDraft(first.interactionId, draft);
    const pausedAt = before.clock.now();
    const after = restart(before, DEADLINE_MS * 3);

    expect(after.log).toHaveLength(0);
    expect(after.clock.pendingTimers()).toBe(0);
    expect(after.registry.pending("sess_1")).toEqual([
      {
        request: expect.objectContaining({ interactionId: first.interactionId }),
        countdown: { phase: "paused", pausedAt },
        draft,
        queueOrder: 0,
      },
      {
        request: expect.objectContaining({ interactionId: second.interactionId }),
        countdown: { phase: "ineligible" },
        queueOrder: 1,
      },
    ]);
    after.registry.cancel(first.interactionId);
    expect(after.countdownsFor(second.interactionId)[0]?.phase).toBe("counting");
  });

  it("[A1][A7] a head that reached the head with the setting off still does not count", () => {
    const before = createHarness({ autoContinue: false });
    before.ask("sess_1");
    const after = restart(before, 10, { autoContinue: true });
    expect(after.log).toHaveLength(0);
    expect(after.clock.pendingTimers()).toBe(0);
  });

  it("[A5][A7] a counting head restored while the setting is off is paused", () => {
    const before = createHarness();
    const asked = before.ask("sess_1");
    const after = restart(before, 10, { autoContinue: false });
    expect(after.countdownsFor(asked.interactionId)).toEqual([
      { phase: "paused", pausedAt: after.clock.now() },
    ]);
    expect(after.clock.pendingTimers()).toBe(0);
  });

  it("[A7] a head that was never timed before the crash starts counting at start-up", () => {
    const request = (interactionId: string, toolCallId: string) => ({
      kind: "question" as const,
      interactionId,
      sessionId: "sess_1",
      toolName: "AskUserQuestion",
      toolCallId,
      questions: [colourQuestion],
      createdAt: 1,
    });
    const entries: SessionEntry[] = [
      { kind: "interaction.requested", request: request("int_a", "call_a") },
      { kind: "interaction.requested", request: request("int_b", "call_b") },
      { kind: "interaction.resolved", interactionId: "int_a", outcome: { type: "cancelled" } },
    ];
    const after = createHarness();
    after.registry.restore(
      "sess_1",
      entries.map((entry, index) => ({ seq: index + 1, at: 1, entry })),
    );
    expect(after.countdownsFor("int_b")).toEqual([
      {
        phase: "counting",
        startedAt: after.clock.now(),
        visibleAt: expect.any(Number),
        deadlineAt: after.clock.now() + DEADLINE_MS,
      },
    ]);
    expect(after.registry.answer("int_a", {})).toMatchObject({ code: "NOT_PENDING" });
  });

  it("[X2] a question that auto-continued before the restart still takes one late answer", () => {
    const before = createHarness();
    const asked = before.ask("sess_1");
    before.clock.advance(DEADLINE_MS);
    const after = restart(before, 10);
    const red = { [colourQuestion.question]: { labels: ["Red"] } };
    expect(after.registry.acceptLateAnswer(asked.interactionId, red)).toMatchObject({ ok: true });
  });

  it("[X2] a late answer recorded before the restart is not accepted a second time", () => {
    const before = createHarness();
    const asked = before.ask("sess_1");
    before.clock.advance(DEADLINE_MS);
    const red = { [colourQuestion.question]: { labels: ["Red"] } };
    const late = before.registry.acceptLateAnswer(asked.interactionId, red);
    if (!late.ok) throw new Error("the first late answer was refused");
    const stored = before.stored("sess_1");
    const message: SessionEntry = {
      kind: "user.message",
      text: late.text,
      synthetic: true,
      lateAnswerFor: asked.interactionId,
    };
    const log = [...stored, { seq: stored.length + 1, at: before.clock.now(), entry: message }];

    const after = createHarness({ start: before.clock.now() + 10 });
    after.registry.restore("sess_1", log);
    const blue = { [colourQuestion.question]: { labels: ["Blue (Recommended)"] } };
    expect(after.registry.acceptLateAnswer(asked.interactionId, blue)).toMatchObject({
      ok: false,
      code: "ALREADY_ANSWERED",
    });
  });
});
