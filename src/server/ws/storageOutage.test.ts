import { TURN_NOTICE_ENGLISH } from "../../shared/turnNotices.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import type { Store } from "../store/store.ts";
import { useScenarioServer } from "../testing/scenarioServer.ts";

// A reply too long for the little room left: the turn fails on the store, not on the model.
const scenario = `
turns:
  - match: long
    steps:
      - say: ${"word ".repeat(20_000)}
  - match: slow
    steps:
      - say: Taking my time.
        delayMs: 5000
  - steps:
      - say: Hello.
`;

describe("a store that fills up, told to every page", () => {
  let store: Store | undefined;
  const lines: string[] = [];
  // The probe runs when a test says: a "full" file still takes the probe's small row, which
  // on a wall clock could end the outage before a test is done looking at it.
  const probeClock = new FakeClock();
  const fixture = useScenarioServer(scenario, {
    // The test fills the server's own connection to the file: a real "database or disk is full".
    checkStore: (opened) => {
      store = opened;
    },
    storageHealth: { clock: probeClock, probeEveryMs: 100, log: (line) => lines.push(line) },
  });
  const limit = (pages: number | "none") => {
    if (!store) throw new Error("the server opens its store first");
    const current = store.db.get<{ page_count: number }>("PRAGMA page_count")!.page_count;
    store.db.exec(`PRAGMA max_page_count = ${pages === "none" ? 1_073_741_823 : current + pages}`);
  };

  it("[R3][W3] a refused write is a coded error without the driver's words, every page hears the store failing and working again, and the log says it once", async () => {
    const a = await fixture.greeted();
    const b = await fixture.greeted();
    a.client.send({ type: "session.create", title: "full disk" });
    const sessionId = (await a.client.next("snapshot")).session.id;

    limit(2);
    const draft = "x".repeat(90_000);
    a.client.send({ type: "composer.draft", sessionId, text: draft });
    const refused = await a.client.next("error", (frame) => frame.ref === "composer.draft");
    expect(refused.code).toBe("STORAGE_FAILED");
    expect(refused.message).not.toMatch(/SQLITE|disk is full|\.db|\//);
    for (const { client } of [a, b]) {
      const failing = await client.next("storage.changed");
      expect(failing.health).toEqual({ state: "failing", problem: "full" });
    }

    // A page that connects now is told right behind its welcome.
    const late = await fixture.greeted();
    const told = await late.client.next("storage.changed");
    expect(told.health).toEqual({ state: "failing", problem: "full" });
    expect(late.client.frames.map((frame) => frame.type).slice(0, 3)).toEqual([
      "welcome",
      "inbox.snapshot",
      "storage.changed",
    ]);

    // More refusals while it lasts: no new line in the log.
    a.client.send({ type: "composer.draft", sessionId, text: `${draft}y` });
    await a.client.next("error", (frame) => frame.ref === "composer.draft");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("database or disk is full (SQLITE_FULL)");

    // Room again, and nobody writes: the server finds out by itself.
    limit("none");
    probeClock.advance(100);
    for (const { client } of [a, b, late]) {
      const back = await client.next("storage.changed");
      expect(back.health).toEqual({ state: "ok" });
    }
    expect(lines[1]).toMatch(/^plangate: the store takes writes again, after /);
    a.client.send({ type: "composer.draft", sessionId, text: draft });
    const kept = await a.client.next("event", (frame) => frame.entry.kind === "composer.draft");
    expect(kept.entry).toEqual({ kind: "composer.draft", text: draft });
    expect(lines).toHaveLength(2);
  });

  it("[R3][W2] a turn the store could not save ends with a coded notice in fixed words, no driver text or path", async () => {
    const { client } = await fixture.greeted();
    client.send({ type: "session.create", title: "long reply" });
    const sessionId = (await client.next("snapshot")).session.id;
    // Room for the prompt and the notice, not for the reply.
    limit(3);
    try {
      client.send({ type: "prompt", sessionId, text: "a long one" });
      const ended = await client.next(
        "event",
        (frame) => frame.sessionId === sessionId && frame.entry.kind === "turn.ended",
      );
      const notice = client
        .events(sessionId)
        .find(({ entry }) => entry.kind === "notice" && entry.level === "error")?.entry;
      expect(notice).toEqual({
        kind: "notice",
        level: "error",
        code: "storage.full",
        text: TURN_NOTICE_ENGLISH["storage.full"],
      });
      expect(ended.entry).toEqual({
        kind: "turn.ended",
        reason: "error",
        code: "storage.full",
        message: TURN_NOTICE_ENGLISH["storage.full"],
      });
      expect(JSON.stringify([notice, ended.entry])).not.toMatch(/SQLITE|database or disk|\.db|\//);
    } finally {
      limit("none");
      probeClock.advance(100);
    }
  });

  it("[R3][W3] a turn whose end cannot be saved either is told to every page as stopped, and its end is written once the store takes writes", async () => {
    const a = await fixture.greeted();
    const b = await fixture.greeted();
    a.client.send({ type: "session.create", title: "end unsaved" });
    const sessionId = (await a.client.next("snapshot")).session.id;
    b.client.send({ type: "session.open", sessionId });
    await b.client.next("snapshot");
    // The reply fails on a full disk; from that moment nothing at all is taken, the turn's end
    // neither (the outage outlasts the turn).
    const unsubscribe = store!.health.subscribe((health) => {
      if (health.state !== "failing") return;
      store!.db.exec("PRAGMA query_only = ON");
      limit("none");
    });
    limit(2);
    try {
      a.client.send({ type: "prompt", sessionId, text: "a long one" });
      for (const { client } of [a, b]) {
        const stopped = await client.next("turn.stopped");
        expect(stopped).toEqual({ type: "turn.stopped", sessionId, code: "storage.full" });
      }
      unsubscribe();
      // A page that opens the session now (a reload) hears it right behind the snapshot.
      const late = await fixture.greeted();
      late.client.send({ type: "session.open", sessionId });
      const snapshot = await late.client.next("snapshot");
      expect(snapshot.entries.map(({ entry }) => entry.kind)).not.toContain("turn.ended");
      expect(await late.client.next("turn.stopped")).toEqual({
        type: "turn.stopped",
        sessionId,
        code: "storage.full",
      });
      // So does one that resumes from the last entry it had (a reconnect).
      const back = await fixture.greeted();
      back.client.send({ type: "session.open", sessionId, lastSeq: snapshot.session.lastSeq });
      expect((await back.client.next("turn.stopped")).code).toBe("storage.full");
    } finally {
      unsubscribe();
      store!.db.exec("PRAGMA query_only = OFF");
    }

    // The store takes writes again: the missing end is written, and every page hears it.
    probeClock.advance(100);
    for (const { client } of [a, b]) {
      const ended = await client.next(
        "event",
        (frame) => frame.sessionId === sessionId && frame.entry.kind === "turn.ended",
      );
      expect(ended.entry).toMatchObject({
        kind: "turn.ended",
        reason: "error",
        code: "storage.full",
      });
    }
    const kinds = a.client.events(sessionId).map(({ entry }) => entry.kind);
    expect(kinds.slice(-4)).toEqual(["user.message", "turn.started", "notice", "turn.ended"]);

    // The session takes the next message as usual.
    a.client.send({ type: "prompt", sessionId, text: "hi" });
    const said = await a.client.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "assistant.message",
    );
    expect(said.entry).toMatchObject({ text: "Hello." });
    await a.client.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "turn.ended",
    );
  });

  it("[R3] a message sent once the store is back, before the probe noticed, writes the missing end first", async () => {
    const { client } = await fixture.greeted();
    client.send({ type: "session.create", title: "end unsaved, then a message" });
    const sessionId = (await client.next("snapshot")).session.id;
    const unsubscribe = store!.health.subscribe((health) => {
      if (health.state !== "failing") return;
      store!.db.exec("PRAGMA query_only = ON");
      limit("none");
    });
    limit(2);
    try {
      client.send({ type: "prompt", sessionId, text: "a long one" });
      await client.next("turn.stopped");
    } finally {
      unsubscribe();
      store!.db.exec("PRAGMA query_only = OFF");
    }
    client.send({ type: "prompt", sessionId, text: "hi" });
    await client.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "assistant.message",
    );
    await client.next(
      "event",
      (frame) =>
        frame.sessionId === sessionId &&
        frame.entry.kind === "turn.ended" &&
        frame.entry.reason === "completed",
    );
    const kinds = client.events(sessionId).map(({ entry }) => entry.kind);
    expect(kinds.slice(kinds.indexOf("turn.started"))).toEqual([
      "turn.started",
      "notice",
      "turn.ended",
      "user.message",
      "turn.started",
      "assistant.message",
      "turn.ended",
    ]);
  });

  it("[R3][W3] Stop pressed while the store refuses writes stops the turn on the page at once; the cancel is written once the store is back", async () => {
    const { client } = await fixture.greeted();
    client.send({ type: "session.create", title: "stopped in an outage" });
    const sessionId = (await client.next("snapshot")).session.id;
    client.send({ type: "prompt", sessionId, text: "a slow one" });
    await client.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "turn.started",
    );
    store!.db.exec("PRAGMA query_only = ON");
    try {
      client.send({ type: "turn.cancel", sessionId });
      expect(await client.next("turn.stopped")).toEqual({
        type: "turn.stopped",
        sessionId,
        code: "storage.readOnly",
      });
    } finally {
      store!.db.exec("PRAGMA query_only = OFF");
    }
    probeClock.advance(100);
    const ended = await client.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "turn.ended",
    );
    expect(ended.entry).toEqual({ kind: "turn.ended", reason: "cancelled" });
  });
});
