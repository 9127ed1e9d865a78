import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { planFilePath } from "../plan/planFile.ts";
import { useScenarioServer } from "../testing/scenarioServer.ts";
import { TestClient } from "../testing/wsClient.ts";

const scenario = `
turns:
  - match: plan
    steps:
      - tools: [{ name: EnterPlanMode, input: {} }]
      - tools:
          - name: TodoWrite
            input: { todos: [{ content: Plan it, status: in_progress, priority: high }] }
      - tools:
          - name: ExitPlanMode
            input: { plan: "# Plan\\n\\n1. Do the thing." }
      - say: "Approved: on with it."
  - steps:
      - say: Hello.
`;

describe("sessions: rename, delete, message drafts and replayed answers", () => {
  const fixture = useScenarioServer(scenario);
  const { server } = fixture;
  const greeted = async () => {
    const opened = await TestClient.greeted(server().wsUrl, server().browserHeaders);
    fixture.track(opened.client);
    return opened;
  };
  const createSession = async (client: TestClient) => {
    client.send({ type: "session.create", title: "test" });
    return (await client.next("snapshot")).session.id;
  };
  /** Runs the plan turn up to its review card; resolves with the card's interaction id. */
  const planCard = async (client: TestClient, sessionId: string) => {
    client.send({ type: "prompt", sessionId, text: "plan it" });
    const requested = await client.next(
      "event",
      (f) => f.entry.kind === "interaction.requested" && f.sessionId === sessionId,
    );
    return requested.entry.kind === "interaction.requested"
      ? requested.entry.request.interactionId
      : "";
  };
  const countRows = (sql: string, sessionId: string) => {
    const db = new Database(server().dbPath, { readonly: true });
    try {
      return (db.prepare(sql).get(sessionId) as { n: number }).n;
    } finally {
      db.close();
    }
  };

  it("[R3] a message whose turn cannot be recorded is refused whole: no message without its turn, and a retry runs", async () => {
    const { client } = await greeted();
    const sessionId = await createSession(client);
    // Another connection to the same file: the log takes the message but refuses the turn.
    const db = new Database(server().dbPath);
    db.exec(
      `CREATE TRIGGER refuse_turn BEFORE INSERT ON entries WHEN NEW.body LIKE '%"turn.started"%'
       BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`,
    );
    try {
      client.send({ type: "prompt", sessionId, text: "hello there" });
      const refused = await client.next("error", (frame) => frame.ref === "prompt");
      expect(refused.code).toBe("STORAGE_FAILED");
      const bodies = db
        .prepare("SELECT body FROM entries WHERE session_id = ?")
        .all(sessionId)
        .map((row) => (row as { body: string }).body);
      expect(bodies.some((body) => body.includes("hello there"))).toBe(false);
    } finally {
      db.exec("DROP TRIGGER refuse_turn");
      db.close();
    }

    client.send({ type: "prompt", sessionId, text: "hello again" });
    const ended = await client.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "turn.ended",
    );
    expect(ended.entry).toEqual({ kind: "turn.ended", reason: "completed" });
    const said = client
      .events(sessionId)
      .flatMap(({ entry }) => (entry.kind === "user.message" ? [entry.text] : []));
    expect(said).toEqual(["hello again"]);
  });

  it("[W15] a rename reaches every tab as an upserted summary, and sticks", async () => {
    const a = await greeted();
    const b = await greeted();
    const sessionId = await createSession(a.client);
    a.client.send({ type: "session.rename", sessionId, title: "  Price cache  " });
    const upserted = await b.client.next(
      "session.upserted",
      (f) => f.session.id === sessionId && f.session.title === "Price cache",
    );
    expect(upserted.session.title).toBe("Price cache");
    const c = await greeted();
    expect(c.welcome.sessions.find((s) => s.id === sessionId)?.title).toBe("Price cache");

    a.client.send({ type: "session.rename", sessionId, title: "   " });
    expect((await a.client.next("error")).code).toBe("BAD_FRAME");
  });

  it("[W15] delete removes the log rows, todos, drafts, open cards and plan file, and every tab drops it", async () => {
    const a = await greeted();
    const b = await greeted();
    const sessionId = await createSession(a.client);
    const keep = await createSession(a.client);
    const interactionId = await planCard(a.client, sessionId);
    a.client.send({ type: "composer.draft", sessionId, text: "half a thought" });
    await a.client.next("event", (f) => f.entry.kind === "composer.draft");
    mkdirSync(dirname(planFilePath(server().workspace, sessionId)), { recursive: true });
    writeFileSync(planFilePath(server().workspace, sessionId), "# an older approved plan\n");
    const entriesSql = "SELECT count(*) AS n FROM entries WHERE session_id = ?";
    expect(countRows(entriesSql, sessionId)).toBeGreaterThan(3);
    expect(countRows("SELECT count(*) AS n FROM todos WHERE session_id = ?", sessionId)).toBe(1);

    a.client.send({ type: "session.delete", sessionId });
    await a.client.next("session.removed", (f) => f.sessionId === sessionId);
    await b.client.next("session.removed", (f) => f.sessionId === sessionId);

    expect(countRows(entriesSql, sessionId)).toBe(0);
    expect(countRows("SELECT count(*) AS n FROM sessions WHERE id = ?", sessionId)).toBe(0);
    expect(countRows("SELECT count(*) AS n FROM todos WHERE session_id = ?", sessionId)).toBe(0);
    expect(existsSync(planFilePath(server().workspace, sessionId))).toBe(false);
    expect(
      server()
        .server.sessions.summaries()
        .map((s) => s.id),
    ).toContain(keep);
    expect(
      server()
        .server.sessions.summaries()
        .map((s) => s.id),
    ).not.toContain(sessionId);

    // The card is gone too: an answer to it is refused, and nothing is written for it.
    a.client.send({
      type: "interaction.answer",
      interactionId,
      answers: { "Review the plan": { labels: ["Approve"] } },
    });
    expect((await a.client.next("receipt")).ok).toBe(false);
    a.client.send({ type: "session.open", sessionId });
    expect((await a.client.next("error")).code).toBe("SESSION_NOT_FOUND");
    const c = await greeted();
    expect(c.welcome.sessions.map((s) => s.id)).not.toContain(sessionId);
  });

  it("[W14] the message box's draft is kept in the log, reaches other tabs, and a sent message clears it", async () => {
    const a = await greeted();
    const b = await greeted();
    const sessionId = await createSession(a.client);
    b.client.send({ type: "session.open", sessionId });
    await b.client.next("snapshot");

    a.client.send({ type: "composer.draft", sessionId, text: "draft for later" });
    const live = await b.client.next("event", (f) => f.entry.kind === "composer.draft");
    expect(live.entry).toEqual({ kind: "composer.draft", text: "draft for later" });

    // A reload: the snapshot carries the draft.
    const reloaded = await greeted();
    reloaded.client.send({ type: "session.open", sessionId });
    const snapshot = await reloaded.client.next("snapshot");
    expect(snapshot.entries.at(-1)?.entry).toEqual({
      kind: "composer.draft",
      text: "draft for later",
    });

    a.client.send({ type: "prompt", sessionId, text: "draft for later" });
    const cleared = await b.client.next(
      "event",
      (f) => f.entry.kind === "composer.draft" && f.entry.text === "",
    );
    expect(cleared.entry).toEqual({ kind: "composer.draft", text: "" });
  });

  it("[W7] an approval replayed after a restart on the same database is accepted once; the copy is refused", async () => {
    const a = await greeted();
    const sessionId = await createSession(a.client);
    const interactionId = await planCard(a.client, sessionId);
    a.client.close();

    await server().restart();
    const answer = {
      type: "interaction.answer",
      interactionId,
      answers: { "Review the plan": { labels: ["Approve"] } },
    };
    const after = await greeted();
    after.client.send({ type: "session.open", sessionId });
    const snapshot = await after.client.next("snapshot");
    const requested = snapshot.entries.find((e) => e.entry.kind === "interaction.requested");
    const question =
      requested?.entry.kind === "interaction.requested" &&
      requested.entry.request.kind === "question"
        ? requested.entry.request.questions[0]?.question
        : undefined;
    expect(question).toBeDefined();
    const answers = { [question!]: { labels: ["Approve"] } };

    after.client.send({ ...answer, answers });
    expect(await after.client.next("receipt")).toEqual({
      type: "receipt",
      interactionId,
      ok: true,
    });
    // The replay of the same click (a tab that did not see the receipt) changes nothing.
    after.client.send({ ...answer, answers });
    const second = await after.client.next("receipt");
    expect(second.ok).toBe(false);

    await after.client.next("event", (f) => f.entry.kind === "turn.ended");
    await server().server.sessions.idle(sessionId);
    const resolved = after.client
      .events(sessionId)
      .filter((f) => f.entry.kind === "interaction.resolved");
    expect(resolved).toHaveLength(1);
    const approved = after.client.events(sessionId).filter((f) => f.entry.kind === "plan.approved");
    expect(approved).toHaveLength(1);
    expect(readFileSync(planFilePath(server().workspace, sessionId), "utf8")).toContain(
      "Do the thing",
    );
  });
});
