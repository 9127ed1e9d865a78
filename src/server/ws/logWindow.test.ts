import type { Database } from "better-sqlite3";
import type { SessionEntry, StoredEntry } from "../../protocol/index.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import { openDatabase } from "../store/database.ts";
import { migrate, migrations } from "../store/migrations.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { tempDir } from "../testing/helpers.ts";
import { historyPage, latestWindow, SNAPSHOT_LIMITS } from "./logWindow.ts";

const build = { permissionMode: "build", planEnabled: false } as const;
const plan = { permissionMode: "build", planEnabled: true } as const;

function request(interactionId: string): SessionEntry {
  return {
    kind: "interaction.requested",
    request: {
      kind: "question",
      interactionId,
      sessionId: "s1",
      toolName: "AskUserQuestion",
      toolCallId: `call_${interactionId}`,
      questions: [
        {
          question: `Question ${interactionId}?`,
          header: "Pick",
          multiSelect: false,
          options: [
            { label: "A", description: "" },
            { label: "B", description: "" },
          ],
        },
      ],
      createdAt: 0,
    },
  };
}

const filler = (i: number): SessionEntry =>
  i % 2 === 0
    ? { kind: "user.message", text: `message ${i}` }
    : { kind: "assistant.message", text: `reply ${i}` };

describe("log windows: bounded snapshots and history pages", () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database;
  let log: SessionLog;

  beforeEach(() => {
    dir = tempDir();
    db = openDatabase(`${dir.path}/plangate.db`);
    log = new SessionLog(db, new FakeClock());
    log.createSession({ id: "s1", title: "long", model: "scripted/demo", mode: build });
  });
  afterEach(() => {
    db.close();
    dir.remove();
  });

  const append = (entry: SessionEntry) => log.append("s1", entry).seq;
  const appendFiller = (count: number) => {
    for (let i = 0; i < count; i++) append(filler(i));
  };

  it("[W3] bounds a long session's snapshot yet carries the pending question, mode, model and todos from far back", () => {
    append({ kind: "session.modeChanged", mode: build });
    const mode = append({ kind: "session.modeChanged", mode: plan });
    append({ kind: "todos.updated", todos: [] });
    const todos = append({
      kind: "todos.updated",
      todos: [{ content: "Ship it", status: "in_progress", priority: "high" }],
    });
    const model = append({ kind: "session.modelChanged", model: "scripted/other" });
    const turn = append({ kind: "turn.started" });
    const asked = append(request("q_open"));
    append({
      kind: "interaction.countdown",
      interactionId: "q_open",
      countdown: { phase: "counting", startedAt: 1, visibleAt: 2, deadlineAt: 3 },
    });
    const countdown = append({
      kind: "interaction.countdown",
      interactionId: "q_open",
      countdown: { phase: "paused", pausedAt: 2 },
    });
    append({
      kind: "interaction.draft",
      interactionId: "q_open",
      draft: { page: 0, picks: {}, other: {} },
    });
    const draft = append({
      kind: "interaction.draft",
      interactionId: "q_open",
      draft: { page: 0, picks: { "Question q_open?": ["B"] }, other: {} },
    });
    const answeredLater = append(request("q_late"));
    append(request("q_done"));
    append({
      kind: "interaction.resolved",
      interactionId: "q_done",
      outcome: { type: "cancelled" },
    });
    appendFiller(2_000);
    append({
      kind: "interaction.resolved",
      interactionId: "q_late",
      outcome: { type: "answered", answers: {}, auto: true },
    });
    appendFiller(10);
    const lastSeq = log.requireSession("s1").lastSeq;

    const window = latestWindow(log, "s1", lastSeq);

    expect(window.entries.length).toBe(SNAPSHOT_LIMITS.maxEntries);
    expect(window.entries.map((e) => e.seq)).toEqual(
      Array.from(
        { length: window.entries.length },
        (_, i) => lastSeq - window.entries.length + 1 + i,
      ),
    );
    const first = window.entries[0]!.seq;
    expect(window.earlier).toEqual({ beforeSeq: first, count: first - 1 });
    expect(window.context.map((e) => e.seq)).toEqual([
      1,
      mode,
      todos,
      model,
      turn,
      asked,
      countdown,
      draft,
      answeredLater,
    ]);
    expect(window.context.every((e) => e.seq < first)).toBe(true);
  });

  it("[W3] sends a short session whole, with nothing earlier", () => {
    appendFiller(20);
    const window = latestWindow(log, "s1", log.requireSession("s1").lastSeq);
    expect(window.entries.map((e) => e.seq)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    expect(window.context).toEqual([]);
    expect(window.earlier).toBeUndefined();
  });

  it("[W3] does not let a burst of saved drafts push the conversation out of the snapshot", () => {
    appendFiller(50);
    append(request("q_typing"));
    for (let i = 0; i < 1_000; i++) {
      append({
        kind: "interaction.draft",
        interactionId: "q_typing",
        draft: { page: 0, picks: {}, other: { q: `typing ${i}` } },
      });
    }
    const lastSeq = log.requireSession("s1").lastSeq;
    const window = latestWindow(log, "s1", lastSeq);
    expect(window.entries.length).toBe(lastSeq);
    expect(window.earlier).toBeUndefined();
  });

  it("[W3] stops at the byte budget but always carries the latest entry", () => {
    for (let i = 0; i < 5; i++) append({ kind: "assistant.message", text: "x".repeat(1_000) });
    const lastSeq = log.requireSession("s1").lastSeq;
    const small = latestWindow(log, "s1", lastSeq, { maxEntries: 300, maxBytes: 2_500 });
    expect(small.entries.map((e) => e.seq)).toEqual([lastSeq - 1, lastSeq]);
    const tiny = latestWindow(log, "s1", lastSeq, { maxEntries: 300, maxBytes: 10 });
    expect(tiny.entries.map((e) => e.seq)).toEqual([lastSeq]);
    expect(tiny.earlier).toEqual({ beforeSeq: lastSeq, count: lastSeq - 1 });
  });

  it("[W3] history pages give back every older entry exactly once, in order, with the requests they answer", () => {
    append(request("q_old"));
    appendFiller(700);
    append({
      kind: "interaction.resolved",
      interactionId: "q_old",
      outcome: { type: "cancelled" },
    });
    appendFiller(700);
    const lastSeq = log.requireSession("s1").lastSeq;
    const pages: StoredEntry[][] = [];
    let window = latestWindow(log, "s1", lastSeq);
    pages.unshift(window.entries);
    const contexts: StoredEntry[] = [];
    while (window.earlier) {
      window = historyPage(log, "s1", window.earlier.beforeSeq, { maxEntries: 250, maxBytes: 1e6 });
      expect(window.entries.length).toBeLessThanOrEqual(250);
      pages.unshift(window.entries);
      contexts.push(...window.context);
    }
    expect(pages.flat()).toEqual(log.entriesAfter("s1", 0));
    // The page holding q_old's resolution does not hold its request, so the request comes along.
    expect(contexts.map((e) => e.entry.kind)).toEqual(["interaction.requested"]);
    expect(contexts[0]!.seq).toBe(2);
  });

  it("[W3] an empty page before seq 1 says there is nothing earlier", () => {
    const page = historyPage(log, "s1", 1);
    expect(page).toEqual({ entries: [], context: [] });
  });

  it("finds open interactions in a log written before interaction ids had a column", () => {
    const oldDir = tempDir();
    const old = openDatabase(`${oldDir.path}/old.db`);
    try {
      old.pragma("user_version = 0");
      old.exec("DROP TABLE todos; DROP TABLE entries; DROP TABLE sessions; DROP TABLE settings;");
      migrate(old, migrations.slice(0, 2));
      old
        .prepare("INSERT INTO sessions VALUES ('s1', 't', 0, 0, 'scripted/demo', 'build', 0, 3)")
        .run();
      const insert = old.prepare("INSERT INTO entries VALUES ('s1', ?, 0, ?, ?)");
      for (const [seq, entry] of [
        [1, request("q_a")],
        [2, request("q_b")],
        [3, { kind: "interaction.resolved", interactionId: "q_a", outcome: { type: "cancelled" } }],
      ] as const) {
        insert.run(seq, entry.kind, JSON.stringify(entry));
      }
      migrate(old);
      const oldLog = new SessionLog(old, new FakeClock());
      expect(oldLog.openRequests("s1", 4).map((e) => e.seq)).toEqual([2]);
    } finally {
      old.close();
      oldDir.remove();
    }
  });
});
