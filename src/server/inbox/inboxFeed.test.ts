import type { Database } from "better-sqlite3";
import { queuePositions, type ServerFrame } from "../../protocol/index.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import {
  colourQuestion,
  flush,
  planReviewQuestion,
  registryOnLog,
} from "../interactions/registryHarness.ts";
import { openDatabase } from "../store/database.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { tempDir } from "../testing/helpers.ts";
import { InboxFeed } from "./inboxFeed.ts";

const build = { permissionMode: "build", planEnabled: false } as const;
type Changed = Extract<ServerFrame, { type: "inbox.changed" }>;

describe("inbox feed", () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database;
  let clock: FakeClock;
  let log: SessionLog;
  let feed: InboxFeed;
  let changes: Changed[];
  let registry: ReturnType<typeof registryOnLog>;

  beforeEach(() => {
    dir = tempDir();
    db = openDatabase(`${dir.path}/plangate.db`);
    clock = new FakeClock();
    log = new SessionLog(db, clock);
    registry = registryOnLog(log, clock);
    feed = new InboxFeed({ log, interactions: registry });
    changes = [];
    feed.onChange((frame) => {
      if (frame.type === "inbox.changed") changes.push(frame);
    });
    for (const id of ["sess_a", "sess_b", "sess_mcp"]) {
      log.createSession({ id, title: id, model: "scripted/demo", mode: build });
    }
  });
  afterEach(() => {
    feed.close();
    registry.close();
    db.close();
    dir.remove();
  });

  const signal = () => new AbortController().signal;
  const ask = (sessionId: string, toolCallId: string, questions = [colourQuestion]) =>
    registry.askQuestions(
      sessionId,
      { toolName: "AskUserQuestion", toolCallId, questions },
      signal(),
    );

  it("[U1] lists every pending question, review and permission across sessions, oldest first", async () => {
    void ask("sess_b", "c1");
    clock.advance(10);
    void registry.askPermission(
      "sess_a",
      { toolName: "Write", toolCallId: "c2", summary: "notes.md", input: { path: "notes.md" } },
      signal(),
    );
    clock.advance(10);
    void ask("sess_mcp", "c3", [planReviewQuestion]);
    clock.advance(10);
    void ask("sess_b", "c4");
    await flush();

    const items = feed.snapshot();
    const positions = queuePositions(items);
    expect(
      items.map((item) => [
        item.request.sessionId,
        item.request.kind,
        positions.get(item.request.interactionId),
      ]),
    ).toEqual([
      ["sess_b", "question", 0],
      ["sess_a", "permission", 0],
      ["sess_mcp", "question", 0],
      ["sess_b", "question", 1],
    ]);
    expect(items[0]?.countdown.phase).toBe("counting");
  });

  it("[X5] reads one pending item from its session, as the snapshot has it", async () => {
    void ask("sess_a", "c1");
    void ask("sess_b", "c2");
    void ask("sess_b", "c3");
    await flush();
    const [, second] = registry.pending("sess_b");
    const id = second?.request.interactionId ?? "";
    const fromSnapshot = feed.snapshot().find((item) => item.request.interactionId === id);
    expect(fromSnapshot && queuePositions(feed.snapshot()).get(id)).toBe(1);
    expect(feed.item("sess_b", id)).toEqual(fromSnapshot);
    expect(feed.item("sess_a", id)).toBeUndefined();
    expect(registry.answer(id, { [colourQuestion.question]: { labels: ["Red"] } })).toEqual({
      ok: true,
    });
    expect(feed.item("sess_b", id)).toBeUndefined();
  });

  it("[U1] tells connected clients what arrived, changed and left, once per change", async () => {
    void ask("sess_a", "c1");
    await flush();
    expect(changes).toHaveLength(1);
    expect(changes[0]?.upserted.map((item) => item.request.toolCallId)).toEqual(["c1"]);
    const id = changes[0]?.upserted[0]?.request.interactionId ?? "";

    expect(registry.touch(id)).toEqual({ ok: true });
    await flush();
    expect(changes[1]?.upserted).toEqual([]);
    expect(changes[1]?.updated[0]?.countdown.phase).toBe("paused");

    expect(registry.answer(id, { [colourQuestion.question]: { labels: ["Red"] } })).toEqual({
      ok: true,
    });
    await flush();
    expect(changes[2]).toEqual({ type: "inbox.changed", upserted: [], updated: [], removed: [id] });
    expect(feed.snapshot()).toEqual([]);
    expect(changes).toHaveLength(3);
  });

  it("[U1][U3] names the items that arrived, not a known one whose request was taken in again", async () => {
    const arrivals: string[][] = [];
    feed.onChange((frame, arrived) => {
      if (frame.type === "inbox.changed") arrivals.push([...arrived]);
    });
    void ask("sess_a", "c1");
    await flush();
    const id = changes[0]?.upserted[0]?.request.interactionId ?? "";
    expect(arrivals).toEqual([[id]]);
    // As after a takeover (S2): the same interaction, its request read again from the log.
    const pendingOne = registry.pendingOne.bind(registry);
    registry.pendingOne = (interactionId) => {
      const view = pendingOne(interactionId);
      return view && { ...view, request: { ...view.request } };
    };
    expect(registry.touch(id)).toEqual({ ok: true });
    void ask("sess_b", "c2");
    await flush();
    expect(changes[1]?.upserted.map((item) => item.request.toolCallId)).toEqual(["c1", "c2"]);
    const second = changes[1]?.upserted[1]?.request.interactionId ?? "";
    expect(arrivals[1]).toEqual([second]);
  });

  it("[U1][Q7] a head leaving a long queue changes only the new head, not every item behind it", async () => {
    for (let call = 0; call < 50; call++) void ask("sess_a", `c${call}`);
    await flush();
    const before = feed.snapshot();
    const [head, next] = registry.pending("sess_a");
    changes.length = 0;
    const sessionReads = vi.spyOn(registry, "pending");

    expect(
      registry.answer(head?.request.interactionId ?? "", {
        [colourQuestion.question]: { labels: ["Red"] },
      }),
    ).toEqual({ ok: true });
    await flush();

    // The entries name the two interactions that changed: the session's queue is not re-read.
    expect(sessionReads).not.toHaveBeenCalled();
    expect(changes).toHaveLength(1);
    expect(changes[0]?.removed).toEqual([head?.request.interactionId]);
    // Only the new head's countdown started; the 48 behind it are unchanged.
    expect(changes[0]?.upserted).toEqual([]);
    expect(changes[0]?.updated.map((update) => update.interactionId)).toEqual([
      next?.request.interactionId,
    ]);
    const after = feed.snapshot();
    const positions = queuePositions(after);
    expect(after.map((item) => positions.get(item.request.interactionId))).toEqual(
      before.slice(1).map((_, position) => position),
    );
  });

  it("[U1][X3] a draft saved on a waiting plan goes out without the plan, which every client already holds", async () => {
    const plan = `# Plan\n\n${"- a step of the plan, long enough to count\n".repeat(5_000)}`;
    void ask("sess_a", "c1", [{ ...planReviewQuestion, detail: plan }]);
    await flush();
    const arrived = JSON.stringify(changes[0]);
    expect(arrived.length).toBeGreaterThan(plan.length);
    const id = changes[0]?.upserted[0]?.request.interactionId ?? "";
    const draft = { page: 0, picks: {}, other: {}, feedback: "split step 3" };

    expect(registry.saveDraft(id, draft)).toEqual({ ok: true });
    await flush();

    expect(changes).toHaveLength(2);
    expect(changes[1]?.upserted).toEqual([]);
    expect(JSON.stringify(changes[1]).length).toBeLessThan(1_000);
    expect(changes[1]?.updated).toEqual([
      expect.objectContaining({ interactionId: id, sessionId: "sess_a", draft }),
    ]);
    // A client that connects now gets the whole item, draft included.
    expect(feed.snapshot()[0]).toEqual(expect.objectContaining({ draft }));
  });

  it("[U1] a snapshot taken between a change and its broadcast sends the change first", async () => {
    void ask("sess_a", "c1");
    const items = feed.snapshot();
    expect(changes).toHaveLength(1);
    expect(items).toHaveLength(1);
    await flush();
    expect(changes).toHaveLength(1);
  });
});
