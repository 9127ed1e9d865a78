import { describe, expect, it } from "vitest";
import { created, questionRequest, stored } from "./fixtures.ts";
import { applyEntries, applyEntry, emptySessionView } from "./sessionView.ts";

describe("applyEntry", () => {
  it("[W3] folds a batch exactly as one entry at a time, skipping duplicates, without touching the old view", () => {
    const batch = [
      stored(1, created),
      stored(2, { kind: "user.message", text: "hi" }),
      stored(2, { kind: "user.message", text: "hi" }),
      stored(3, { kind: "assistant.message", text: "hello" }),
    ];
    const start = applyEntry(emptySessionView("s1"), stored(1, created));
    const oneByOne = batch.reduce(applyEntry, start);
    const folded = applyEntries(start, batch);
    expect(folded).toEqual(oneByOne);
    expect(folded.entries.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    expect(start.entries).toHaveLength(1);
  });

  it("[W3] returns the same view for an entry it already holds", () => {
    const view = applyEntry(emptySessionView("s1"), stored(1, created));
    expect(applyEntry(view, stored(1, created))).toBe(view);
    expect(applyEntry(view, stored(0, created))).toBe(view);
  });

  it("[W3] folds a replay in seq order even when delivered out of order", () => {
    const view = applyEntries(emptySessionView("s1"), [
      stored(2, { kind: "user.message", text: "b" }),
      stored(1, created),
      stored(3, { kind: "assistant.message", text: "c" }),
    ]);
    expect(view.entries.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(view.mode).toEqual({ permissionMode: "build", planEnabled: false });
  });

  it("[R3] never queues the same interaction twice, nor one already resolved", () => {
    let view = applyEntries(emptySessionView("s1"), [
      stored(1, { kind: "interaction.requested", request: questionRequest("q1") }),
      stored(2, { kind: "interaction.requested", request: questionRequest("q1") }),
    ]);
    expect(view.pending).toHaveLength(1);
    view = applyEntries(view, [
      stored(3, {
        kind: "interaction.resolved",
        interactionId: "q1",
        outcome: { type: "cancelled" },
      }),
      stored(4, { kind: "interaction.requested", request: questionRequest("q1") }),
    ]);
    expect(view.pending).toEqual([]);
    expect(view.resolved.q1?.outcome).toEqual({ type: "cancelled" });
  });
});
