import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { PROTOCOL_VERSION } from "../../protocol/index.ts";
import { TURN_LOCK_SPACE } from "../store/postgres/pgTurnLocks.ts";
import { CliProcess } from "../testing/cliProcess.ts";
import { tempDir } from "../testing/helpers.ts";
import { ASK_COLOUR_TURN } from "../testing/scenarioTurns.ts";
import { kindIs, sessionOnBoth } from "../testing/serversOnPostgres.ts";
import { startTestPostgres, type TestPostgres } from "../testing/testPostgres.ts";
import { TestClient } from "../testing/wsClient.ts";

const scenario = `
turns:${ASK_COLOUR_TURN}
`;
// Room for the take-over to land before the deadline on a loaded machine (B looks once a second).
const DEADLINE_MS = 15_000;

let postgres: TestPostgres;
let dir: ReturnType<typeof tempDir>;
const running: CliProcess[] = [];
const clients: TestClient[] = [];
beforeAll(async () => {
  postgres = await startTestPostgres();
  dir = tempDir();
  writeFileSync(join(dir.path, "README.md"), "# take-over test\n");
  writeFileSync(join(dir.path, "scenario.yaml"), scenario);
}, 60_000);
afterAll(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const cli of running.splice(0)) await cli.kill();
  await postgres?.stop();
  dir?.remove();
});

async function startServer(dbUrl: string) {
  const cli = CliProcess.spawn(
    ["--port", "0", "--workspace", dir.path, "--db", dbUrl, "--token", "secret-token"].concat([
      ...["--model", `scripted:${join(dir.path, "scenario.yaml")}`, "--no-build"],
      ...["--grace-ms", "1000", "--deadline-ms", String(DEADLINE_MS)],
    ]),
  );
  running.push(cli);
  const url = await cli.url();
  const client = await TestClient.open(`ws://${url.host}/ws?token=secret-token`);
  clients.push(client);
  client.send({ type: "hello", protocol: PROTOCOL_VERSION });
  await client.next("welcome");
  return { cli, client, port: Number(url.port) };
}

/** The port in the `application_name` of the server holding the session's turn lock, if any. */
async function turnHolder(dbUrl: string, sessionId: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1::int::oid
         AND l.objid = hashtext($2)::oid AND l.objsubid = 2`,
      [TURN_LOCK_SPACE, sessionId],
    );
    return rows[0] ? /port (\d+)/.exec(rows[0].name)?.[1] : undefined;
  } finally {
    await client.end();
  }
}

/** Two servers on a fresh database, a session open on both, and A's turn asking, counting down. */
async function askedOnA() {
  const dbUrl = await postgres.newDatabase();
  const a = await startServer(dbUrl);
  const b = await startServer(dbUrl);
  const sessionId = await sessionOnBoth(a.client, b.client, "moves");
  a.client.send({ type: "prompt", sessionId, text: "ask me" });
  const counting = await b.client.next("event", kindIs(sessionId, "interaction.countdown"));
  if (counting.entry.kind !== "interaction.countdown") throw new Error("unreachable");
  if (counting.entry.countdown.phase !== "counting") throw new Error("not counting");
  return { dbUrl, a, b, sessionId, deadlineAt: counting.entry.countdown.deadlineAt };
}

describe("[S2] a session's turn runs on one server and moves when that server dies", () => {
  it("[S2][A7] kill -9 of the server running a turn: the other takes the session over, the question keeps its deadline, the turn ends there", async () => {
    const { dbUrl, a, b, sessionId, deadlineAt } = await askedOnA();
    expect(await turnHolder(dbUrl, sessionId)).toBe(String(a.port));
    // B's prompt while A runs the turn joins A's turn; B starts no turn of its own.
    b.client.send({ type: "prompt", sessionId, text: "and take your time" });
    await a.client.next(
      "event",
      (frame) =>
        kindIs(sessionId, "user.message")(frame) &&
        JSON.stringify(frame.entry).includes("take your time"),
    );

    await a.cli.kill("SIGKILL");
    await vi.waitFor(async () => expect(await turnHolder(dbUrl, sessionId)).toBe(String(b.port)), {
      timeout: 12_000,
      interval: 100,
    });
    expect(Date.now()).toBeLessThan(deadlineAt);

    // Nobody answers: B fires the deadline A set, not a new one, and the turn ends on B.
    const resolved = await b.client.next(
      "event",
      kindIs(sessionId, "interaction.resolved"),
      DEADLINE_MS + 5_000,
    );
    expect(resolved.entry).toMatchObject({ outcome: { type: "answered", auto: true } });
    expect(resolved.at).toBeGreaterThanOrEqual(deadlineAt);
    expect(resolved.at).toBeLessThan(deadlineAt + 2_000);
    // Only B's turn is left to record the call's result and carry on to the turn's end.
    const result = await b.client.next("event", kindIs(sessionId, "tool.result"), 10_000);
    expect(result.entry).toMatchObject({ name: "AskUserQuestion", isError: false });
    const ended = await b.client.next("event", kindIs(sessionId, "turn.ended"), 10_000);
    expect(ended.entry).toEqual({ kind: "turn.ended", reason: "completed" });
    expect(await turnHolder(dbUrl, sessionId)).toBeUndefined();

    const events = b.client.frames.flatMap((frame) =>
      frame.type === "event" && frame.sessionId === sessionId ? [frame.entry] : [],
    );
    expect(events.filter((entry) => entry.kind === "interaction.requested")).toHaveLength(1);
    expect(events.filter((entry) => entry.kind === "interaction.countdown")).toHaveLength(1);
    expect(events.filter((entry) => entry.kind === "turn.started")).toHaveLength(1);
  }, 60_000);

  it("[S2][A7] a message sent to the other server just after the kill joins the dead server's turn there: one turn, the question keeps its deadline", async () => {
    const { dbUrl, a, b, sessionId, deadlineAt } = await askedOnA();

    await a.cli.kill("SIGKILL");
    // The moment PostgreSQL frees A's lock, before B's once-a-second look for dead servers'
    // turns (mostly): B's prompt is what finds the open turn.
    await vi.waitFor(async () => expect(await turnHolder(dbUrl, sessionId)).toBeUndefined(), {
      timeout: 10_000,
      interval: 20,
    });
    b.client.send({ type: "prompt", sessionId, text: "and take your time" });

    const resolved = await b.client.next(
      "event",
      kindIs(sessionId, "interaction.resolved"),
      DEADLINE_MS + 5_000,
    );
    expect(resolved.entry).toMatchObject({ outcome: { type: "answered", auto: true } });
    expect(resolved.at).toBeGreaterThanOrEqual(deadlineAt);
    const ended = await b.client.next("event", kindIs(sessionId, "turn.ended"), 10_000);
    expect(ended.entry).toEqual({ kind: "turn.ended", reason: "completed" });
    const events = b.client.frames.flatMap((frame) =>
      frame.type === "event" && frame.sessionId === sessionId ? [frame.entry] : [],
    );
    // The old code started a second turn for the message while the first one's question waited.
    expect(events.filter((entry) => entry.kind === "turn.started")).toHaveLength(1);
    expect(events.filter((entry) => entry.kind === "turn.ended")).toHaveLength(1);
    expect(events.findIndex((entry) => entry.kind === "turn.ended")).toBeGreaterThan(
      events.findIndex((entry) => entry.kind === "interaction.resolved"),
    );
  }, 60_000);
});
