import type { CountdownState } from "../../protocol/index.ts";
import {
  type AttentionMemory,
  attentionState,
  EMPTY_MEMORY,
  type WaitingItem,
} from "./attentionState.ts";

const counting: CountdownState = {
  phase: "counting",
  startedAt: 1_000,
  visibleAt: 61_000,
  deadlineAt: 301_000,
};

function item(key: string, countdown: CountdownState = counting): WaitingItem {
  return { key, sessionId: "s1", kind: "question", text: `Question ${key}?`, countdown };
}

/** Runs a sequence of checks, threading the memory like the controller does. */
function run(
  steps: { waiting: WaitingItem[]; hidden: boolean; now: number }[],
  memory: AttentionMemory = EMPTY_MEMORY,
) {
  return steps.map((step) => {
    const decision = attentionState(step.waiting, step.hidden, step.now, memory);
    memory = decision.memory;
    return decision;
  });
}

describe("attentionState", () => {
  it("[W4] a visible tab shows no badge and notifies nothing", () => {
    const decision = attentionState([item("a")], false, 2_000, EMPTY_MEMORY);
    expect(decision).toMatchObject({ badgeCount: 0, notify: [], nextCheckAt: null });
  });

  it("[W4] a question that arrives while hidden gives a badge and one notification", () => {
    const [first, second] = run([
      { waiting: [item("a")], hidden: true, now: 2_000 },
      { waiting: [item("a")], hidden: true, now: 3_000 },
    ]);
    expect(first?.badgeCount).toBe(1);
    expect(first?.notify).toEqual([
      { key: "a", sessionId: "s1", kind: "question", text: "Question a?" },
    ]);
    expect(second?.badgeCount).toBe(1);
    expect(second?.notify).toEqual([]);
  });

  it("[W4] the badge counts everything waiting and clears when the tab is visible again", () => {
    const [hidden, visible] = run([
      { waiting: [item("a"), item("b", { phase: "ineligible" })], hidden: true, now: 2_000 },
      { waiting: [item("a"), item("b", { phase: "ineligible" })], hidden: false, now: 3_000 },
    ]);
    expect(hidden?.badgeCount).toBe(2);
    expect(visible?.badgeCount).toBe(0);
  });

  it("[W4] a question seen on the visible tab is not announced as new after the tab hides", () => {
    const [, hidden] = run([
      { waiting: [item("a")], hidden: false, now: 2_000 },
      { waiting: [item("a")], hidden: true, now: 3_000 },
    ]);
    expect(hidden?.badgeCount).toBe(1);
    expect(hidden?.notify).toEqual([]);
  });

  it("[X5] asks for a check at the moment the countdown becomes visible, in server time", () => {
    const decision = attentionState([item("a")], true, 2_000, EMPTY_MEMORY);
    expect(decision.nextCheckAt).toBe(counting.visibleAt);
  });

  it("[X5] notifies again when the countdown becomes visible, before the deadline, with the deadline", () => {
    const [, , atVisible, later] = run([
      { waiting: [item("a")], hidden: false, now: 2_000 },
      { waiting: [item("a")], hidden: true, now: 3_000 },
      { waiting: [item("a")], hidden: true, now: counting.visibleAt },
      { waiting: [item("a")], hidden: true, now: counting.visibleAt + 5_000 },
    ]);
    expect(atVisible?.notify).toEqual([
      {
        key: "a",
        sessionId: "s1",
        kind: "question",
        text: "Question a?",
        deadlineAt: counting.deadlineAt,
      },
    ]);
    expect(atVisible?.nextCheckAt).toBeNull();
    expect(later?.notify).toEqual([]);
  });

  it("[X5] a question arriving hidden with its countdown already showing is announced once, with the deadline", () => {
    const decision = attentionState([item("a")], true, counting.visibleAt + 1, EMPTY_MEMORY);
    expect(decision.notify).toHaveLength(1);
    expect(decision.notify[0]?.deadlineAt).toBe(counting.deadlineAt);
  });

  it("[X5] a countdown the user watched become visible is not announced after the tab hides", () => {
    const [, hidden] = run([
      { waiting: [item("a")], hidden: false, now: counting.visibleAt + 1 },
      { waiting: [item("a")], hidden: true, now: counting.visibleAt + 2 },
    ]);
    expect(hidden?.notify).toEqual([]);
    expect(hidden?.nextCheckAt).toBeNull();
  });

  it("[X5] a paused or ineligible question never schedules a countdown notice", () => {
    const paused = item("a", { phase: "paused", pausedAt: 5_000 });
    const review = { ...item("b", { phase: "ineligible" }), kind: "review" as const };
    const decision = attentionState([paused, review], true, 6_000, EMPTY_MEMORY);
    expect(decision.nextCheckAt).toBeNull();
    expect(decision.notify.map((notice) => notice.kind)).toEqual(["question", "review"]);
    expect(decision.notify.every((notice) => notice.deadlineAt === undefined)).toBe(true);
  });

  it("[W4] forgets settled items, so a new question is announced again", () => {
    const [, , third] = run([
      { waiting: [item("a")], hidden: true, now: 2_000 },
      { waiting: [], hidden: true, now: 3_000 },
      { waiting: [item("b")], hidden: true, now: 4_000 },
    ]);
    expect(third?.notify.map((notice) => notice.key)).toEqual(["b"]);
    expect(third?.memory.notified).toEqual(new Set(["b#arrived"]));
  });
});
