import type { QuestionAnswers } from "../../protocol/index.ts";
import { isAutoContinueEligible, registrySizes } from "./registry.ts";
import {
  colourQuestion,
  createHarness,
  DEADLINE_MS,
  featuresQuestion,
  flush,
  GRACE_MS,
  planReviewQuestion,
} from "./registryHarness.ts";

describe("queue", () => {
  it("[Q7] serves a session's interactions first in, first out", async () => {
    const h = createHarness({ autoContinue: false });
    const first = h.ask("sess_1");
    const second = h.ask("sess_1", [featuresQuestion]);
    const third = h.askPermission("sess_1");
    expect(h.registry.pendingCount("sess_1")).toBe(3);
    expect(h.registry.pending("sess_1").map((p) => p.request.interactionId)).toEqual([
      first.interactionId,
      second.interactionId,
      third.interactionId,
    ]);

    expect(h.registry.answer(second.interactionId, {})).toEqual({ ok: true });
    expect(h.registry.cancel(first.interactionId)).toEqual({ ok: true });
    expect(h.registry.decide(third.interactionId, "allow_once")).toEqual({ ok: true });
    await flush();
    expect(first.outcomes).toEqual([{ type: "cancelled" }]);
    expect(second.outcomes).toEqual([{ type: "answered", answers: {}, auto: false }]);
    expect(third.outcomes).toEqual([{ type: "decided", decision: "allow_once" }]);
    expect(h.registry.pendingCount("sess_1")).toBe(0);
  });

  it("[Q7] keeps sessions apart", () => {
    const h = createHarness();
    h.ask("sess_1");
    h.ask("sess_2");
    expect(h.registry.pendingCount("sess_1")).toBe(1);
    expect(h.registry.pendingCount("sess_2")).toBe(1);
    expect(h.kinds("sess_2")).toEqual(["interaction.requested", "interaction.countdown"]);
  });

  it("[Q7] only the head counts; the next starts when it becomes the head", () => {
    const h = createHarness();
    const first = h.ask("sess_1");
    const start = h.clock.now();
    h.clock.advance(100);
    const second = h.ask("sess_1", [featuresQuestion]);
    expect(h.countdownsFor(first.interactionId)).toEqual([
      {
        phase: "counting",
        startedAt: start,
        visibleAt: start + GRACE_MS,
        deadlineAt: start + DEADLINE_MS,
      },
    ]);
    expect(h.countdownsFor(second.interactionId)).toEqual([]);
    h.clock.advance(1_000);
    h.registry.answer(first.interactionId, {
      [colourQuestion.question]: { labels: ["Red"] },
    });
    const headAt = h.clock.now();
    expect(h.countdownsFor(second.interactionId)).toEqual([
      {
        phase: "counting",
        startedAt: headAt,
        visibleAt: headAt + GRACE_MS,
        deadlineAt: headAt + DEADLINE_MS,
      },
    ]);
    expect(h.clock.pendingTimers()).toBe(1);
  });
});

describe("eligibility", () => {
  it("[A1] an AskUserQuestion at the head with auto-continue on starts counting", () => {
    const h = createHarness();
    const asked = h.ask("sess_1");
    expect(h.countdownsFor(asked.interactionId)[0]?.phase).toBe("counting");
  });

  it("[A1][P12] a plan review never counts", async () => {
    const h = createHarness();
    const review = h.ask("sess_1", [planReviewQuestion], "ExitPlanMode");
    expect(h.countdownsFor(review.interactionId)).toEqual([]);
    expect(h.clock.pendingTimers()).toBe(0);
    h.clock.advance(DEADLINE_MS * 10);
    await flush();
    expect(review.outcomes).toEqual([]);
    expect(h.registry.pending("sess_1")[0]?.countdown).toEqual({ phase: "ineligible" });
  });

  it("[A1][P12] a plan-review intent inside an AskUserQuestion batch is not eligible either", () => {
    const h = createHarness();
    const asked = h.ask("sess_1", [planReviewQuestion], "AskUserQuestion");
    expect(h.countdownsFor(asked.interactionId)).toEqual([]);
    expect(
      isAutoContinueEligible({
        kind: "question",
        interactionId: "i",
        sessionId: "s",
        toolName: "AskUserQuestion",
        toolCallId: "c",
        questions: [colourQuestion],
        createdAt: 0,
      }),
    ).toBe(true);
  });

  it("[A1] a permission never counts", async () => {
    const h = createHarness();
    const permission = h.askPermission("sess_1");
    h.clock.advance(DEADLINE_MS * 10);
    await flush();
    expect(permission.outcomes).toEqual([]);
    expect(h.countdownsFor(permission.interactionId)).toEqual([]);
  });

  it("[A1] with the setting off when it reaches the head, the question never counts", async () => {
    const h = createHarness({ autoContinue: false });
    const asked = h.ask("sess_1");
    expect(h.countdownsFor(asked.interactionId)).toEqual([{ phase: "ineligible" }]);
    h.setAutoContinue(true);
    h.clock.advance(DEADLINE_MS * 2);
    await flush();
    expect(asked.outcomes).toEqual([]);
  });
});

describe("countdown", () => {
  it("[A2] is still pending one millisecond before the deadline and resolves once at it", async () => {
    const h = createHarness();
    const asked = h.ask("sess_1");
    h.clock.advance(DEADLINE_MS - 1);
    await flush();
    expect(asked.outcomes).toEqual([]);
    expect(h.resolvedFor(asked.interactionId)).toEqual([]);
    h.clock.advance(1);
    await flush();
    expect(h.resolvedFor(asked.interactionId)).toHaveLength(1);
    expect(asked.outcomes).toHaveLength(1);
    h.clock.advance(DEADLINE_MS * 3);
    expect(h.resolvedFor(asked.interactionId)).toHaveLength(1);
  });

  it("[A3] resolves with empty answers marked auto, distinct from a user's empty submit", async () => {
    const h = createHarness();
    const expired = h.ask("sess_1");
    h.clock.advance(DEADLINE_MS);
    const submitted = h.ask("sess_2");
    h.registry.answer(submitted.interactionId, {});
    await flush();
    expect(expired.outcomes).toEqual([{ type: "answered", answers: {}, auto: true }]);
    expect(submitted.outcomes).toEqual([{ type: "answered", answers: {}, auto: false }]);
    expect(h.resolvedFor(expired.interactionId)).toEqual([
      {
        kind: "interaction.resolved",
        interactionId: expired.interactionId,
        outcome: { type: "answered", answers: {}, auto: true },
      },
    ]);
  });

  it("[A4] a touch pauses for good: passing the deadline resolves nothing", async () => {
    const h = createHarness();
    const asked = h.ask("sess_1");
    h.clock.advance(GRACE_MS + 10);
    const pausedAt = h.clock.now();
    expect(h.registry.touch(asked.interactionId)).toEqual({ ok: true });
    expect(h.countdownsFor(asked.interactionId).at(-1)).toEqual({ phase: "paused", pausedAt });
    expect(h.clock.pendingTimers()).toBe(0);
    h.setAutoContinue(false);
    h.setAutoContinue(true);
    h.clock.advance(DEADLINE_MS * 5);
    await flush();
    expect(asked.outcomes).toEqual([]);
    expect(h.resolvedFor(asked.interactionId)).toEqual([]);
    expect(h.registry.touch(asked.interactionId)).toEqual({ ok: true });
    expect(h.countdownsFor(asked.interactionId)).toHaveLength(2);
  });

  it("[A4] saving a draft is a user operation too: it pauses and stores the draft", () => {
    const h = createHarness();
    const asked = h.ask("sess_1");
    const draft = { page: 0, picks: { [colourQuestion.question]: ["Red"] }, other: {} };
    expect(h.registry.saveDraft(asked.interactionId, draft)).toEqual({ ok: true });
    expect(h.countdownsFor(asked.interactionId).at(-1)?.phase).toBe("paused");
    expect(h.registry.saveDraft(asked.interactionId, { ...draft })).toEqual({ ok: true });
    expect(h.kinds().filter((kind) => kind === "interaction.draft")).toHaveLength(1);
    expect(h.registry.pending("sess_1")[0]?.draft).toEqual(draft);
  });

  it("[A4] touching a queued or ineligible interaction is accepted and changes nothing", () => {
    const h = createHarness();
    const review = h.ask("sess_1", [planReviewQuestion], "ExitPlanMode");
    const queued = h.ask("sess_1");
    const before = h.log.length;
    expect(h.registry.touch(review.interactionId)).toEqual({ ok: true });
    expect(h.registry.touch(queued.interactionId)).toEqual({ ok: true });
    expect(h.log.length).toBe(before);
  });

  it("[A5] turning the setting off pauses every counting question", async () => {
    const h = createHarness();
    const one = h.ask("sess_1");
    const two = h.ask("sess_2");
    h.clock.advance(200);
    h.setAutoContinue(false);
    expect(h.countdownsFor(one.interactionId).at(-1)).toEqual({
      phase: "paused",
      pausedAt: h.clock.now(),
    });
    expect(h.countdownsFor(two.interactionId).at(-1)?.phase).toBe("paused");
    h.setAutoContinue(true);
    h.clock.advance(DEADLINE_MS * 2);
    await flush();
    expect(one.outcomes).toEqual([]);
    expect(two.outcomes).toEqual([]);
  });

  it("[A5] turning it back on only times questions that reach the head later", async () => {
    const h = createHarness({ autoContinue: false });
    const early = h.ask("sess_1");
    h.setAutoContinue(true);
    const later = h.ask("sess_1", [featuresQuestion]);
    expect(h.countdownsFor(later.interactionId)).toEqual([]);
    h.registry.cancel(early.interactionId);
    expect(h.countdownsFor(later.interactionId)[0]?.phase).toBe("counting");
    h.clock.advance(DEADLINE_MS);
    await flush();
    expect(later.outcomes).toEqual([{ type: "answered", answers: {}, auto: true }]);
  });

  it("[A5] a firing timer re-checks the state: a missed setting change pauses instead", async () => {
    const h = createHarness();
    const asked = h.ask("sess_1");
    h.setAutoContinueQuietly(false);
    h.clock.advance(DEADLINE_MS);
    await flush();
    expect(asked.outcomes).toEqual([]);
    expect(h.countdownsFor(asked.interactionId).at(-1)?.phase).toBe("paused");
  });

  it("[A5] a pause the log refuses at the deadline is tried again, not dropped with the timer", async () => {
    const h = createHarness();
    const asked = h.ask("sess_1");
    h.setAutoContinueQuietly(false);
    h.failWrites(true);
    h.clock.advance(DEADLINE_MS);
    h.failWrites(false);
    expect(h.registry.pending("sess_1")[0]?.countdown.phase).toBe("counting");
    h.clock.advance(1_000);
    await flush();
    expect(asked.outcomes).toEqual([]);
    expect(h.countdownsFor(asked.interactionId).at(-1)).toEqual({
      phase: "paused",
      pausedAt: h.clock.now(),
    });
    expect(h.registry.pending("sess_1")[0]?.countdown.phase).toBe("paused");
  });

  it("[A5] a timer firing after an answer resolves nothing more", async () => {
    const h = createHarness();
    const asked = h.ask("sess_1");
    h.clock.advance(DEADLINE_MS - 1);
    h.registry.answer(asked.interactionId, { [colourQuestion.question]: { labels: ["Red"] } });
    h.clock.advance(10);
    await flush();
    expect(h.resolvedFor(asked.interactionId)).toHaveLength(1);
    expect(asked.outcomes).toEqual([
      {
        type: "answered",
        answers: { [colourQuestion.question]: { labels: ["Red"] } },
        auto: false,
      },
    ]);
  });

  it("[A6] countdown entries carry absolute server times", () => {
    const h = createHarness({ start: 5_000_000 });
    h.clock.advance(42);
    const asked = h.ask("sess_1");
    expect(h.countdownsFor(asked.interactionId)).toEqual([
      {
        phase: "counting",
        startedAt: 5_000_042,
        visibleAt: 5_000_042 + GRACE_MS,
        deadlineAt: 5_000_042 + DEADLINE_MS,
      },
    ]);
  });
});

describe("answers and receipts", () => {
  const red: QuestionAnswers = { [colourQuestion.question]: { labels: ["Red"] } };

  it("[R3] a second answer is rejected and changes nothing", async () => {
    const h = createHarness();
    const asked = h.ask("sess_1");
    expect(h.registry.answer(asked.interactionId, red)).toEqual({ ok: true });
    const before = h.log.length;
    expect(h.registry.answer(asked.interactionId, {})).toMatchObject({
      ok: false,
      code: "ALREADY_ANSWERED",
    });
    expect(h.registry.cancel(asked.interactionId)).toMatchObject({ code: "ALREADY_ANSWERED" });
    expect(h.registry.touch(asked.interactionId)).toMatchObject({ ok: false });
    expect(h.log.length).toBe(before);
    await flush();
    expect(asked.outcomes).toHaveLength(1);
  });

  it("[R3] an unknown interaction is rejected", () => {
    const h = createHarness();
    expect(h.registry.answer("int_nope", {})).toMatchObject({
      ok: false,
      code: "UNKNOWN_INTERACTION",
    });
    expect(h.registry.cancel("int_nope")).toMatchObject({ code: "UNKNOWN_INTERACTION" });
    expect(h.registry.touch("int_nope")).toMatchObject({ code: "UNKNOWN_INTERACTION" });
    expect(h.registry.decide("int_nope", "deny")).toMatchObject({ code: "UNKNOWN_INTERACTION" });
    expect(h.log).toHaveLength(0);
  });

  it("[R3] a late answer after the deadline, or after a cancel, is NOT_PENDING", () => {
    const h = createHarness();
    const expired = h.ask("sess_1");
    h.clock.advance(DEADLINE_MS);
    const cancelled = h.ask("sess_2");
    h.registry.cancel(cancelled.interactionId);
    const before = h.log.length;
    expect(h.registry.answer(expired.interactionId, red)).toMatchObject({ code: "NOT_PENDING" });
    expect(h.registry.answer(cancelled.interactionId, red)).toMatchObject({ code: "NOT_PENDING" });
    expect(h.log.length).toBe(before);
  });

  it.each<[string, QuestionAnswers]>([
    ["a label never offered", { [colourQuestion.question]: { labels: ["Green"] } }],
    [
      "two labels on a single-select question",
      {
        [colourQuestion.question]: { labels: ["Red", "Blue (Recommended)"] },
      },
    ],
    [
      "a label plus custom text on a single-select question",
      {
        [colourQuestion.question]: { labels: ["Red"], other: "Teal" },
      },
    ],
    ["an answer to a question not in the batch", { "What time is it?": { labels: ["Red"] } }],
    ["a blank answer", { [colourQuestion.question]: { labels: [] } }],
    ["blank custom text", { [colourQuestion.question]: { labels: [], other: "   " } }],
    ["the same label twice", { [featuresQuestion.question]: { labels: ["Search", "Search"] } }],
  ])("[R3] rejects %s as INVALID_ANSWER with nothing appended", async (_name, answers) => {
    const h = createHarness();
    const asked = h.ask("sess_1", [colourQuestion, featuresQuestion]);
    const before = h.log.length;
    expect(h.registry.answer(asked.interactionId, answers)).toMatchObject({
      ok: false,
      code: "INVALID_ANSWER",
    });
    expect(h.log.length).toBe(before);
    expect(h.registry.pendingCount("sess_1")).toBe(1);
    await flush();
    expect(asked.outcomes).toEqual([]);
  });

  it("[Q3] accepts {} and multi-select answers with custom text, trimmed", async () => {
    const h = createHarness();
    const asked = h.ask("sess_1", [colourQuestion, featuresQuestion]);
    const answers = {
      [featuresQuestion.question]: { labels: ["Search", "Export"], other: "  Dark mode " },
    };
    expect(h.registry.answer(asked.interactionId, answers)).toEqual({ ok: true });
    await flush();
    expect(asked.outcomes).toEqual([
      {
        type: "answered",
        answers: {
          [featuresQuestion.question]: { labels: ["Search", "Export"], other: "Dark mode" },
        },
        auto: false,
      },
    ]);
  });

  it("[R3] the wrong verb for the kind is WRONG_KIND", () => {
    const h = createHarness();
    const question = h.ask("sess_1");
    const permission = h.askPermission("sess_2");
    const before = h.log.length;
    expect(h.registry.decide(question.interactionId, "allow_once")).toMatchObject({
      code: "WRONG_KIND",
    });
    expect(h.registry.answer(permission.interactionId, {})).toMatchObject({ code: "WRONG_KIND" });
    expect(h.registry.cancel(permission.interactionId)).toMatchObject({ code: "WRONG_KIND" });
    expect(h.log.length).toBe(before);
  });

  it("[R3] a decided permission reports ALREADY_ANSWERED to a second decision", () => {
    const h = createHarness();
    const permission = h.askPermission("sess_1");
    expect(h.registry.decide(permission.interactionId, "deny")).toEqual({ ok: true });
    expect(h.registry.decide(permission.interactionId, "allow_once")).toMatchObject({
      code: "ALREADY_ANSWERED",
    });
  });

  it("[R3] a storage failure rejects the receipt and changes nothing", async () => {
    const h = createHarness();
    const asked = h.ask("sess_1");
    h.failWrites(true);
    expect(h.registry.answer(asked.interactionId, red)).toMatchObject({ code: "STORAGE_FAILED" });
    expect(h.registry.touch(asked.interactionId)).toMatchObject({ code: "STORAGE_FAILED" });
    h.failWrites(false);
    expect(h.countdownsFor(asked.interactionId).map((c) => c.phase)).toEqual(["counting"]);
    expect(h.registry.answer(asked.interactionId, red)).toEqual({ ok: true });
    await flush();
    expect(asked.outcomes).toHaveLength(1);
  });

  it("[R3] a failed write of the expiry is retried, and resolves once", async () => {
    const h = createHarness();
    const asked = h.ask("sess_1");
    h.failWrites(true);
    h.clock.advance(DEADLINE_MS);
    await flush();
    expect(asked.outcomes).toEqual([]);
    h.failWrites(false);
    h.clock.advance(DEADLINE_MS);
    await flush();
    expect(asked.outcomes).toEqual([{ type: "answered", answers: {}, auto: true }]);
    expect(h.resolvedFor(asked.interactionId)).toHaveLength(1);
  });

  it("[R3] a failed request write rejects the asker and queues nothing", async () => {
    const h = createHarness();
    h.failWrites(true);
    await expect(
      h.registry.askQuestions(
        "sess_1",
        { toolName: "AskUserQuestion", toolCallId: "c", questions: [colourQuestion] },
        new AbortController().signal,
      ),
    ).rejects.toThrow("disk full");
    expect(h.registry.pendingCount("sess_1")).toBe(0);
  });
});

describe("cancel and abort", () => {
  it("[Q8] cancel resolves as cancelled; abort as aborted with its reason", async () => {
    const h = createHarness();
    const cancelled = h.ask("sess_1");
    h.registry.cancel(cancelled.interactionId);
    const a = h.ask("sess_2");
    const b = h.askPermission("sess_2");
    const c = h.ask("sess_2", [featuresQuestion]);
    h.registry.abortSession("sess_2", "turn cancelled");
    await flush();
    expect(cancelled.outcomes).toEqual([{ type: "cancelled" }]);
    expect(a.outcomes).toEqual([{ type: "aborted", reason: "turn cancelled" }]);
    expect(b.outcomes).toEqual([{ type: "aborted", reason: "turn cancelled" }]);
    expect(c.outcomes).toEqual([{ type: "aborted", reason: "turn cancelled" }]);
    expect(h.registry.pendingCount("sess_2")).toBe(0);
    expect(h.countdownsFor(c.interactionId)).toEqual([]);
    expect(h.clock.pendingTimers()).toBe(0);
  });

  it("[Q8] the asker's abort signal aborts its interaction and the next one takes the head", async () => {
    const h = createHarness();
    const controller = h.controller();
    const first = h.ask("sess_1", [colourQuestion], "AskUserQuestion", controller.signal);
    const second = h.ask("sess_1", [featuresQuestion]);
    controller.abort("provider torn down");
    await flush();
    expect(first.outcomes).toEqual([{ type: "aborted", reason: "provider torn down" }]);
    expect(h.countdownsFor(second.interactionId)[0]?.phase).toBe("counting");
  });

  it("[Q8] one signal shared by several interactions aborts each still pending, once", async () => {
    const h = createHarness({ autoContinue: false });
    const controller = h.controller();
    const answered = h.ask("sess_1", [colourQuestion], "AskUserQuestion", controller.signal);
    const first = h.ask("sess_1", [featuresQuestion], "AskUserQuestion", controller.signal);
    const other = h.ask("sess_2", [colourQuestion], "AskUserQuestion", controller.signal);
    const unrelated = h.ask("sess_2", [featuresQuestion]);
    h.registry.answer(answered.interactionId, {});
    controller.abort("turn cancelled");
    await flush();
    expect(answered.outcomes).toEqual([{ type: "answered", answers: {}, auto: false }]);
    expect(first.outcomes).toEqual([{ type: "aborted", reason: "turn cancelled" }]);
    expect(other.outcomes).toEqual([{ type: "aborted", reason: "turn cancelled" }]);
    expect(unrelated.outcomes).toEqual([]);
    expect(h.registry.pendingCount("sess_1")).toBe(0);
    expect(h.registry.pendingCount("sess_2")).toBe(1);
    expect(h.log.filter((e) => e.stored.entry.kind === "interaction.resolved")).toHaveLength(3);
  });

  it("[S2][Q8] a session handed over releases its askers at once with an aborted outcome, writing nothing", async () => {
    const h = createHarness();
    const question = h.ask("sess_1");
    const permission = h.askPermission("sess_1");
    const logged = h.log.length;
    h.registry.handOver?.("sess_1");
    await flush();
    expect(question.outcomes).toEqual([
      { type: "aborted", reason: "the session's turn runs on another server now" },
    ]);
    expect(permission.outcomes).toHaveLength(1);
    expect(h.log).toHaveLength(logged);
    // The cards stay pending here, watched as the other server's (A7 answers the next asker).
    expect(h.registry.pendingCount("sess_1")).toBe(2);
  });

  it("[S2] an answer another server writes between a question's entry and its countdown reaches the asker, and no deadline is armed", async () => {
    const h = createHarness();
    // A shared store hears the other server's entries first when this one writes the countdown.
    h.beforeNextAppend((sessionId, entry) => {
      if (entry.kind !== "interaction.requested") return;
      h.beforeNextAppend((_, countdown) => {
        expect(countdown.kind).toBe("interaction.countdown");
        h.observeForeign(sessionId, {
          kind: "interaction.resolved",
          interactionId: entry.request.interactionId,
          outcome: { type: "answered", answers: {}, auto: false },
        });
      });
    });
    const asked = h.ask("sess_1");
    await flush();
    expect(asked.outcomes).toEqual([{ type: "answered", answers: {}, auto: false }]);
    expect(h.registry.pendingCount("sess_1")).toBe(0);
    expect(h.clock.pendingTimers()).toBe(0);
    h.clock.advance(DEADLINE_MS);
    expect(h.resolvedFor(asked.interactionId)).toHaveLength(1);
  });

  it("[Q8] after close, a signal that aborts still releases its asker, and nothing is written", async () => {
    const h = createHarness();
    const controller = h.controller();
    const asked = h.ask("sess_1", [colourQuestion], "AskUserQuestion", controller.signal);
    const untouched = h.ask("sess_2");
    const logged = h.log.length;
    h.registry.close();
    await flush();
    expect(asked.outcomes).toEqual([]);
    controller.abort("the server is shutting down");
    await flush();
    expect(asked.outcomes).toEqual([{ type: "aborted", reason: "the server is shutting down" }]);
    expect(untouched.outcomes).toEqual([]);
    expect(h.log).toHaveLength(logged);
  });

  it("[Q8] an already aborted signal appends nothing", async () => {
    const h = createHarness();
    const controller = h.controller();
    controller.abort();
    const outcome = await h.registry.askQuestions(
      "sess_1",
      { toolName: "AskUserQuestion", toolCallId: "c", questions: [colourQuestion] },
      controller.signal,
    );
    expect(outcome).toEqual({ type: "aborted", reason: "the turn was cancelled" });
    expect(h.log).toHaveLength(0);
  });
});

describe("late answers", () => {
  it("[X2] accepts one late answer for a question that continued automatically", () => {
    const h = createHarness();
    const asked = h.ask("sess_1");
    const red = { [colourQuestion.question]: { labels: ["Red"] } };
    expect(h.registry.acceptLateAnswer(asked.interactionId, red)).toMatchObject({
      ok: false,
      code: "NOT_PENDING",
    });
    h.clock.advance(DEADLINE_MS);
    expect(h.registry.acceptLateAnswer(asked.interactionId, {})).toMatchObject({
      code: "INVALID_ANSWER",
    });
    const accepted = h.registry.acceptLateAnswer(asked.interactionId, red);
    expect(accepted).toMatchObject({ ok: true, sessionId: "sess_1", answers: red });
    expect(accepted.ok && accepted.text).toContain("Red");
    expect(h.registry.acceptLateAnswer(asked.interactionId, red)).toMatchObject({
      code: "ALREADY_ANSWERED",
    });
  });

  it("[X2] a late answer that could not be recorded can be given again", () => {
    const h = createHarness();
    const asked = h.ask("sess_1");
    h.clock.advance(DEADLINE_MS);
    const red = { [colourQuestion.question]: { labels: ["Red"] } };
    expect(h.registry.acceptLateAnswer(asked.interactionId, red)).toMatchObject({ ok: true });
    h.registry.releaseLateAnswer(asked.interactionId);
    expect(h.registry.acceptLateAnswer(asked.interactionId, red)).toMatchObject({ ok: true });
  });

  it("[X2] refuses a late answer for a question the user answered", () => {
    const h = createHarness();
    const asked = h.ask("sess_1");
    h.registry.answer(asked.interactionId, {});
    expect(h.registry.acceptLateAnswer(asked.interactionId, {})).toMatchObject({
      code: "ALREADY_ANSWERED",
    });
    expect(h.registry.acceptLateAnswer("int_x", {})).toMatchObject({
      code: "UNKNOWN_INTERACTION",
    });
  });
});

describe("memory", () => {
  it("[Q7][A7] after every interaction ends, the pending-state maps are empty again", async () => {
    const h = createHarness();
    const asked = [];
    for (let round = 0; round < 50; round += 1) {
      asked.push(h.ask(`sess_${round % 3}`));
      asked.push(h.askPermission(`sess_${round % 3}`));
    }
    const aborted = h.controller();
    asked.push(h.ask("sess_x", [colourQuestion], "AskUserQuestion", aborted.signal));
    // A restored interaction whose call re-runs and is answered.
    const before = createHarness();
    // Ids from another process's run, past the ones asked here.
    for (let skip = 0; skip < 150; skip += 1) before.ask("sess_elsewhere");
    before.ask("sess_r", [colourQuestion], "AskUserQuestion", undefined, "call_r");
    h.registry.restore("sess_r", before.stored("sess_r"));
    const rerun = h.registry.askQuestions(
      "sess_r",
      { toolName: "AskUserQuestion", toolCallId: "call_r", questions: [colourQuestion] },
      new AbortController().signal,
    );
    expect(registrySizes(h.registry)).toMatchObject({ pending: 102, queues: 5 });

    aborted.abort("stopped");
    h.registry.cancel(asked[0]!.interactionId);
    h.clock.advance(DEADLINE_MS);
    for (const { interactionId } of asked) {
      h.registry.answer(interactionId, {});
      h.registry.decide(interactionId, "deny");
    }
    await rerun;
    await flush();

    expect(registrySizes(h.registry)).toMatchObject({
      pending: 0,
      queues: 0,
    });
  });
});
