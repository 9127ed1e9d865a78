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
      removed: ["b"],
    });
    expect(sortedInbox(inbox).map((i) => [i.request.interactionId, i.countdown.phase])).toEqual([
      ["a", "paused"],
      ["c", "ineligible"],
    ]);
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
