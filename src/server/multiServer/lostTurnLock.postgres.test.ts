import pg from "pg";
import { TURN_LOCK_SPACE } from "../store/postgres/pgTurnLocks.ts";
import { ASK_COLOUR_TURN } from "../testing/scenarioTurns.ts";
import { kindIs, sessionOnBoth, useServersOnPostgres } from "../testing/serversOnPostgres.ts";

const scenario = `
turns:${ASK_COLOUR_TURN}
`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("[S2] a store connection that drops loses its turn locks, and the server notices", () => {
  const servers = useServersOnPostgres(scenario);

  /** Two servers; A runs a turn waiting for an answer, B's page has the session open. */
  async function turnWaitingOnA() {
    const { dbPath, started } = await servers.start(2);
    const [a, b] = started as [(typeof started)[0], (typeof started)[0]];
    const sessionId = await sessionOnBoth(a.client, b.client, "locked");
    a.client.send({ type: "prompt", sessionId, text: "ask me" });
    const requested = await b.client.next("event", kindIs(sessionId, "interaction.requested"));
    if (requested.entry.kind !== "interaction.requested") throw new Error("unreachable");
    expect(a.server.server.sessions.isRunning(sessionId)).toBe(true);
    const admin = new pg.Client({ connectionString: dbPath });
    await admin.connect();
    return { a, b, sessionId, admin, dbPath, interactionId: requested.entry.request.interactionId };
  }

  async function holderPid(admin: pg.Client, sessionId: string): Promise<number> {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
         AND classid = $1::int::oid AND objid = hashtext($2)::oid AND objsubid = 2`,
      [TURN_LOCK_SPACE, sessionId],
    );
    const pid = rows[0]?.pid;
    if (pid === undefined) throw new Error("nobody holds the turn lock");
    return pid;
  }

  /** Terminates the backend holding the session's turn lock. */
  async function terminateHolder(admin: pg.Client, sessionId: string): Promise<void> {
    const pid = await holderPid(admin, sessionId);
    await admin.query("SELECT pg_terminate_backend($1, 5000)", [pid]);
  }

  it("[S2] A's store backend is terminated mid-turn: A takes its lock back and the turn never runs on both", async () => {
    const { a, b, sessionId, admin } = await turnWaitingOnA();
    try {
      await terminateHolder(admin, sessionId);
      // Longer than B's take-over check (1 s): with the lock left free, B would start the turn too.
      await sleep(2_500);
      expect(b.server.server.sessions.isRunning(sessionId)).toBe(false);
      expect(a.server.server.sessions.isRunning(sessionId)).toBe(true);
      const { rows } = await admin.query(
        `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
           AND classid = $1::int::oid AND objid = hashtext($2)::oid AND objsubid = 2`,
        [TURN_LOCK_SPACE, sessionId],
      );
      expect(rows).toHaveLength(1);
    } finally {
      await admin.end();
    }
  }, 30_000);

  it("[S2] the lock is taken by someone else before A reconnects: A stops its turn without writing, and one server goes on with it once the lock is free", async () => {
    const { a, b, sessionId, admin, interactionId, dbPath } = await turnWaitingOnA();
    try {
      // Standing in for a server that took the session over in between: queued behind A's
      // lock, it gets it the moment A's backend ends, before A can reconnect.
      const pid = await holderPid(admin, sessionId);
      const rival = new pg.Client({ connectionString: dbPath });
      await rival.connect();
      const rivalTook = rival.query("SELECT pg_advisory_lock($1::int, hashtext($2))", [
        TURN_LOCK_SPACE,
        sessionId,
      ]);
      const queuedBy = Date.now() + 5_000;
      for (;;) {
        const { rows } = await admin.query(
          // This database's locks only: the cluster is shared with other test files.
          `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        if (rows.length > 0 || Date.now() > queuedBy) break;
        await sleep(20);
      }
      await admin.query("SELECT pg_terminate_backend($1, 5000)", [pid]);
      await rivalTook;
      const stopped = Date.now() + 5_000;
      while (a.server.server.sessions.isRunning(sessionId) && Date.now() < stopped) await sleep(50);
      expect(a.server.server.sessions.isRunning(sessionId)).toBe(false);
      // A wrote nothing for it: its question is still pending, the turn still open.
      await sleep(300);
      expect(
        b.client.frames.some(
          (frame) =>
            frame.type === "event" &&
            frame.sessionId === sessionId &&
            (frame.entry.kind === "interaction.resolved" || frame.entry.kind === "turn.ended"),
        ),
      ).toBe(false);

      await rival.end();
      // Whichever server's take-over check comes first goes on with the turn; only one does.
      const runs = () =>
        [a, b].filter((server) => server.server.server.sessions.isRunning(sessionId)).length;
      const movedBy = Date.now() + 5_000;
      while (runs() === 0 && Date.now() < movedBy) await sleep(50);
      expect(runs()).toBe(1);
      b.client.send({
        type: "interaction.answer",
        interactionId,
        answers: { "Which colour?": { labels: ["Blue"] } },
      });
      expect(await b.client.next("receipt")).toMatchObject({ ok: true });
      const noted = await b.client.next("event", kindIs(sessionId, "assistant.message"));
      expect(noted.entry).toMatchObject({ text: expect.stringContaining("Blue") });
      await b.client.next("event", kindIs(sessionId, "turn.ended"));
      expect(runs()).toBe(0);
      const ends = b.client.frames.filter(
        (frame) => frame.type === "event" && frame.entry.kind === "turn.ended",
      );
      expect(ends).toHaveLength(1);
    } finally {
      await admin.end();
    }
  }, 30_000);
});
