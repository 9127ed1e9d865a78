import { describe, expect, it } from "vitest";
import type { InboxItem } from "../../protocol/index.ts";
import { questionRequest } from "../store/fixtures.ts";
import { applyInboxFrame, sortedInbox } from "./inboxState.ts";

const item = (id: string, sessionId: string, createdAt: number, queueOrder = 0): InboxItem => ({
  request: { ...questionRequest(id, sessionId), createdAt },
  countdown: { phase: "ineligible" },
  queueOrder,
});

describe("inbox state", () => {
  it("[U1] a snapshot replaces the inbox; changes add, update and remove items", () => {
    let inbox = applyInboxFrame(
      { stale: item("stale", "s", 1) },
      {
        type: "inbox.snapshot",
        items: [item("a", "s1", 5), item("b", "s2", 3)],
      },
    );
    expect(Object.keys(inbox).sort()).toEqual(["a", "b"]);
    inbox = applyInboxFrame(inbox, {
      type: "inbox.changed",
      upserted: [
        { ...item("a", "s1", 5), countdown: { phase: "paused", pausedAt: 9 } },
        item("c", "s1", 5, 1),
      ],
      updated: [],
      removed: ["b"],
    });
    expect(sortedInbox(inbox).map((i) => [i.request.interactionId, i.countdown.phase])).toEqual([
      ["a", "paused"],
      ["c", "ineligible"],
    ]);
  });

  it("[U1][X3] an update keeps the request the page holds and takes the item's new countdown, queue order and draft, a cleared draft included", () => {
    const draft = { page: 0, picks: {}, other: {}, feedback: "tighten step 2" };
    const held = {
      ...item("a", "s1", 5),
      draft: { page: 0, picks: {}, other: {}, feedback: "old" },
    };
    let inbox = applyInboxFrame({}, { type: "inbox.snapshot", items: [held] });
    const update = {
      interactionId: "a",
      sessionId: "s1",
      countdown: { phase: "paused" as const, pausedAt: 9 },
      queueOrder: 0,
    };
    inbox = applyInboxFrame(inbox, {
      type: "inbox.changed",
      upserted: [],
      updated: [
        { ...update, draft },
        { ...update, interactionId: "gone" },
      ],
      removed: [],
    });
    expect(inbox.a?.request).toBe(held.request);
    expect(inbox.a?.countdown).toEqual({ phase: "paused", pausedAt: 9 });
    expect(inbox.a?.draft).toEqual(draft);
    // An update for an item the page does not hold adds nothing: it has no request to show.
    expect(Object.keys(inbox)).toEqual(["a"]);

    inbox = applyInboxFrame(inbox, {
      type: "inbox.changed",
      upserted: [],
      updated: [update],
      removed: [],
    });
    expect(inbox.a).toEqual({ request: held.request, countdown: update.countdown, queueOrder: 0 });
  });

  it("[U1] an item that arrived without its request takes the one the page holds from its session's event", () => {
    const request = questionRequest("a", "s1");
    const held = (sessionId: string, id: string) =>
      sessionId === "s1" && id === "a" ? request : undefined;
    const arrived = {
      interactionId: "a",
      sessionId: "s1",
      countdown: { phase: "ineligible" as const },
      queueOrder: 2,
    };
    const inbox = applyInboxFrame(
      {},
      {
        type: "inbox.changed",
        upserted: [],
        updated: [],
        arrived: [arrived, { ...arrived, interactionId: "unknown" }],
        removed: [],
      },
      held,
    );
    expect(inbox).toEqual({ a: { request, countdown: arrived.countdown, queueOrder: 2 } });
  });

  it("[U1] orders oldest first, then by session, then by place in the session's queue", () => {
    const inbox = applyInboxFrame(
      {},
      {
        type: "inbox.snapshot",
        items: [
          item("late", "s1", 9),
          item("second", "s2", 4, 1),
          item("first", "s2", 4),
          item("other", "s1", 4),
        ],
      },
    );
    expect(sortedInbox(inbox).map((i) => i.request.interactionId)).toEqual([
      "other",
      "first",
      "second",
      "late",
    ]);
  });
});
