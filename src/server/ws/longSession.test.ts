import { PROTOCOL_VERSION, type SessionEntry, type StoredEntry } from "../../protocol/index.ts";
import { systemClock } from "../clock.ts";
import { openDatabase } from "../store/database.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { startTestServer, type TestServer } from "../testing/testServer.ts";
import { TestClient } from "../testing/wsClient.ts";
import { SNAPSHOT_LIMITS } from "./logWindow.ts";

const SESSION = "sess_long";
const FILLER = 1_500;

/** Entries that count against a window's size: drafts and countdown steps ride along free. */
const counted = (entries: StoredEntry[]) =>
  entries.filter((e) => !SNAPSHOT_LIMITS.uncounted?.has(e.entry.kind)).length;

/** Writes a long session whose only open question was asked near its start. */
function seed(dbPath: string): number {
  const db = openDatabase(dbPath);
  try {
    const log = new SessionLog(db, systemClock);
    log.createSession({
      id: SESSION,
      title: "long",
      model: "scripted/demo",
      mode: { permissionMode: "build", planEnabled: false },
    });
    const early: SessionEntry[] = [
      { kind: "session.modeChanged", mode: { permissionMode: "edit", planEnabled: true } },
      {
        kind: "todos.updated",
        todos: [{ content: "Read the log", status: "in_progress", priority: "high" }],
      },
      { kind: "turn.started" },
      {
        kind: "interaction.requested",
        request: {
          kind: "question",
          interactionId: "int_early",
          sessionId: SESSION,
          toolName: "AskUserQuestion",
          toolCallId: "call_early",
          questions: [
            {
              question: "Asked long ago?",
              header: "Old",
              multiSelect: false,
              options: [
                { label: "Yes", description: "" },
                { label: "No", description: "" },
              ],
            },
          ],
          createdAt: Date.now(),
        },
      },
    ];
    db.transaction(() => {
      for (const entry of early) log.append(SESSION, entry);
      for (let i = 0; i < FILLER; i++) {
        log.append(SESSION, { kind: "notice", level: "info", text: `note ${i}` });
      }
    })();
    return log.requireSession(SESSION).lastSeq;
  } finally {
    db.close();
  }
}

describe("a long session over the socket", () => {
  let t: TestServer;
  let seeded: number;
  const clients: TestClient[] = [];
  const greeted = async () => {
    const opened = await TestClient.greeted(t.wsUrl, t.browserHeaders);
    clients.push(opened.client);
    return opened.client;
  };

  beforeAll(async () => {
    t = await startTestServer({ timings: { graceMs: 60_000, deadlineMs: 300_000 } });
    seeded = seed(t.dbPath);
    // A7: the restarted server restores the open question from the log.
    await t.restart();
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  afterAll(async () => {
    await t.stop();
  });

  it("[W3] opens with a bounded snapshot that still carries the pending question, mode and todos from far back", async () => {
    const client = await greeted();
    client.send({ type: "session.open", sessionId: SESSION });
    const snapshot = await client.next("snapshot");
    expect(counted(snapshot.entries)).toBe(SNAPSHOT_LIMITS.maxEntries);
    expect(snapshot.entries.at(-1)!.seq).toBe(snapshot.session.lastSeq);
    expect(snapshot.session.lastSeq).toBeGreaterThanOrEqual(seeded);
    const first = snapshot.entries[0]!.seq;
    expect(snapshot.earlier).toEqual({ beforeSeq: first, count: first - 1 });
    const kinds = (snapshot.context ?? []).map((e) => e.entry.kind);
    expect(kinds).toEqual([
      "session.created",
      "session.modeChanged",
      "todos.updated",
      "turn.started",
      "interaction.requested",
    ]);
    expect(snapshot.session.pendingInteractions).toBe(1);
    // The question from far back is live: a touch is accepted.
    client.send({ type: "interaction.touch", interactionId: "int_early" });
    expect(await client.next("receipt")).toMatchObject({ interactionId: "int_early", ok: true });
  });

  it("[W3] pages back through the whole log with session.history: in order, no gaps, no duplicates", async () => {
    const client = await greeted();
    client.send({ type: "session.open", sessionId: SESSION });
    const snapshot = await client.next("snapshot");
    const pages: StoredEntry[][] = [snapshot.entries];
    let earlier = snapshot.earlier;
    while (earlier) {
      const beforeSeq = earlier.beforeSeq;
      client.send({ type: "session.history", sessionId: SESSION, beforeSeq, limit: 400 });
      const page = await client.next("history", (f) => f.beforeSeq === beforeSeq);
      expect(page.entries.length).toBeLessThanOrEqual(400);
      expect(page.entries.at(-1)!.seq).toBe(beforeSeq - 1);
      pages.unshift(page.entries);
      earlier = page.earlier;
    }
    const seqs = pages.flat().map((e) => e.seq);
    const end = snapshot.entries.at(-1)!.seq;
    expect(seqs).toEqual(Array.from({ length: end }, (_, i) => i + 1));
  });

  it("[W3] resume replays a short gap as events and answers a wide one with a bounded snapshot", async () => {
    const opener = await greeted();
    opener.send({ type: "session.open", sessionId: SESSION });
    const { lastSeq } = (await opener.next("snapshot")).session;
    const near = await TestClient.open(t.wsUrl, t.browserHeaders);
    clients.push(near);
    near.send({
      type: "hello",
      protocol: PROTOCOL_VERSION,
      resume: [{ sessionId: SESSION, lastSeq: lastSeq - 3 }],
    });
    await near.next("event", (f) => f.seq === lastSeq);
    // The restored question's countdown may write an entry meanwhile (a loaded machine can take
    // past its grace): what is asserted is the gap, not what came after it.
    const replayed = near.events(SESSION).filter((e) => e.seq <= lastSeq);
    expect(replayed.map((e) => e.seq)).toEqual([lastSeq - 2, lastSeq - 1, lastSeq]);

    const far = await TestClient.open(t.wsUrl, t.browserHeaders);
    clients.push(far);
    far.send({
      type: "hello",
      protocol: PROTOCOL_VERSION,
      resume: [{ sessionId: SESSION, lastSeq: 10 }],
    });
    const snapshot = await far.next("snapshot");
    expect(counted(snapshot.entries)).toBe(SNAPSHOT_LIMITS.maxEntries);
    expect(snapshot.earlier?.beforeSeq).toBe(snapshot.entries[0]!.seq);
    expect(far.events(SESSION).filter((e) => e.seq <= snapshot.session.lastSeq)).toEqual([]);
  });

  it("[W3] a hello that names a session from seq 0 gets its bounded snapshot right behind welcome", async () => {
    const client = await TestClient.open(t.wsUrl, t.browserHeaders);
    clients.push(client);
    client.send({
      type: "hello",
      protocol: PROTOCOL_VERSION,
      resume: [{ sessionId: SESSION, lastSeq: 0 }],
    });
    await client.next("welcome");
    const snapshot = await client.next("snapshot");
    expect(snapshot.session.id).toBe(SESSION);
    expect(counted(snapshot.entries)).toBe(SNAPSHOT_LIMITS.maxEntries);
    expect(snapshot.context?.some((e) => e.entry.kind === "interaction.requested")).toBe(true);
    expect(client.events(SESSION).filter((e) => e.seq <= snapshot.session.lastSeq)).toEqual([]);
  });

  it("answers history of an unknown session with an error frame", async () => {
    const client = await greeted();
    client.send({ type: "session.history", sessionId: "sess_nope", beforeSeq: 5 });
    expect(await client.next("error")).toMatchObject({
      code: "SESSION_NOT_FOUND",
      ref: "session.history",
    });
  });
});
