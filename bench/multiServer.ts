// Two servers on one PostgreSQL (S2) against the single SQLite server.
// Each server is the real CLI (`node --import tsx src/server/cli.ts`, --no-build) in its own
// process on loopback, playing a scenario that asks one question per prompt; PostgreSQL is a
// throwaway local cluster (src/server/testing/testPostgres.ts, fsync off).
// Fan-out latency: a driver client on server A answers the pending question; the time runs
// from sending the answer to a watcher client receiving the `interaction.resolved` event: on
// server B (two servers on PostgreSQL: A's write, NOTIFY, B reads the entry and broadcasts),
// or on A itself (one server on SQLite). 200 rounds (BENCH_MS_ROUNDS), one question each.
// Events/s: 100 followers (BENCH_MS_FOLLOWERS) of one session, split evenly over A and B (or
// all on the single server); the driver on A saves 2,000 drafts (BENCH_MS_DRAFTS) of a
// pending question, 64 in flight; events/s = draft events received by all followers ÷ (first
// draft sent → last one received).
// Deadline lateness on PostgreSQL: bench/lib/manyQuestionsWorker.ts (1,000 sessions × 10
// queued questions, grace 200 ms, deadline 1 s, all 10,000 deadlines fire) with the store on
// PostgreSQL and each firing taken through its lease row; stopped after 3 minutes.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import WebSocket from "ws";
import { PROTOCOL_VERSION, type ServerFrame } from "../src/protocol/index.ts";
import { CliProcess } from "../src/server/testing/cliProcess.ts";
import { tempDir } from "../src/server/testing/helpers.ts";
import { startTestPostgres } from "../src/server/testing/testPostgres.ts";
import { type Figure, median, percentile } from "./figures.ts";
import { latencyFigure } from "./lib/session.ts";
import { runWorker } from "./manyQuestions.ts";

const ROUNDS = Number(process.env.BENCH_MS_ROUNDS ?? 200);
const FOLLOWERS = Number(process.env.BENCH_MS_FOLLOWERS ?? 100);
const DRAFTS = Number(process.env.BENCH_MS_DRAFTS ?? 2000);
const WINDOW = 64;
const TOKEN = "bench-token";
const QUESTION = "Which colour?";

const scenario = `
turns:
  - steps:
      - tools:
          - name: AskUserQuestion
            input:
              questions:
                - question: ${QUESTION}
                  header: Colour
                  multiSelect: false
                  options: [{ label: Red }, { label: Blue }]
      - say: "Noted."
`;

/** A raw socket with a frame inbox: `next` waits for the first untaken frame that matches. */
class Socket {
  private readonly frames: ServerFrame[] = [];
  private wake: (() => void) | undefined;
  onFrame: ((frame: ServerFrame) => void) | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => {
      const frame = JSON.parse(data.toString()) as ServerFrame;
      if (this.onFrame) return this.onFrame(frame);
      this.frames.push(frame);
      this.wake?.();
    });
  }

  static async open(url: string): Promise<Socket> {
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    const socket = new Socket(ws);
    socket.send({ type: "hello", protocol: PROTOCOL_VERSION });
    await socket.next((frame) => frame.type === "welcome");
    return socket;
  }

  send(frame: unknown): void {
    this.ws.send(JSON.stringify(frame));
  }

  async next(matches: (frame: ServerFrame) => boolean, timeoutMs = 10_000): Promise<ServerFrame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.frames.findIndex(matches);
      if (index >= 0) return this.frames.splice(index, 1)[0]!;
      if (Date.now() > deadline) throw new Error("no matching frame in time");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  close(): void {
    this.ws.close();
  }
}

const isEvent = (kind: string, interactionId?: string) => (frame: ServerFrame) =>
  frame.type === "event" &&
  frame.entry.kind === kind &&
  (interactionId === undefined ||
    (frame.entry.kind === "interaction.requested"
      ? frame.entry.request.interactionId === interactionId
      : "interactionId" in frame.entry && frame.entry.interactionId === interactionId));

async function startServer(dir: string, db: string): Promise<{ cli: CliProcess; wsUrl: string }> {
  const cli = CliProcess.spawn(
    ["--port", "0", "--workspace", dir, "--db", db, "--token", TOKEN, "--no-build"].concat([
      "--model",
      `scripted:${join(dir, "scenario.yaml")}`,
    ]),
  );
  const url = await cli.url();
  return { cli, wsUrl: `ws://${url.host}/ws?token=${TOKEN}` };
}

async function openSession(driver: Socket, others: Socket[]): Promise<string> {
  driver.send({ type: "session.create", title: "bench" });
  const snapshot = await driver.next((frame) => frame.type === "snapshot");
  if (snapshot.type !== "snapshot") throw new Error("unreachable");
  const sessionId = snapshot.session.id;
  for (const other of others) {
    other.send({ type: "session.open", sessionId });
    await other.next((frame) => frame.type === "snapshot");
  }
  return sessionId;
}

async function ask(driver: Socket, watcher: Socket, sessionId: string): Promise<string> {
  driver.send({ type: "prompt", sessionId, text: "ask" });
  const requested = await driver.next(isEvent("interaction.requested"));
  if (requested.type !== "event" || requested.entry.kind !== "interaction.requested") {
    throw new Error("unreachable");
  }
  const { interactionId } = requested.entry.request;
  await watcher.next(isEvent("interaction.requested", interactionId));
  return interactionId;
}

/** Answer on the driver's server → the watcher's client has the resolution. */
async function answerLatency(driverUrl: string, watcherUrl: string): Promise<number[]> {
  const driver = await Socket.open(driverUrl);
  const watcher = await Socket.open(watcherUrl);
  const sessionId = await openSession(driver, [watcher]);
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const interactionId = await ask(driver, watcher, sessionId);
    const start = performance.now();
    driver.send({
      type: "interaction.answer",
      interactionId,
      answers: { [QUESTION]: { labels: ["Red"] } },
    });
    await watcher.next(isEvent("interaction.resolved", interactionId));
    samples.push(performance.now() - start);
    await driver.next(isEvent("turn.ended"));
    await watcher.next(isEvent("turn.ended"));
  }
  driver.close();
  watcher.close();
  return samples;
}

/** Drafts saved on the driver's server, counted by followers spread over `followerUrls`. */
async function eventsPerSecond(driverUrl: string, followerUrls: string[]): Promise<number> {
  const driver = await Socket.open(driverUrl);
  const followers: Socket[] = [];
  for (let index = 0; index < FOLLOWERS; index++) {
    followers.push(await Socket.open(followerUrls[index % followerUrls.length]!));
  }
  const sessionId = await openSession(driver, followers);
  const interactionId = await ask(driver, followers[0]!, sessionId);
  let received = 0;
  let lastAt = 0;
  let allIn: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    allIn = resolve;
  });
  for (const follower of followers) {
    follower.onFrame = (frame) => {
      if (frame.type !== "event" || frame.entry.kind !== "interaction.draft") return;
      received++;
      if (received === FOLLOWERS * DRAFTS) {
        lastAt = performance.now();
        allIn();
      }
    };
  }
  let receipts = 0;
  driver.onFrame = (frame) => {
    if (frame.type === "receipt") receipts++;
  };
  const start = performance.now();
  for (let sent = 0; sent < DRAFTS; sent++) {
    while (sent - receipts >= WINDOW) await new Promise((resolve) => setImmediate(resolve));
    driver.send({
      type: "interaction.draft",
      interactionId,
      draft: { page: 0, picks: {}, other: { q: `typing ${sent}` } },
    });
  }
  await done;
  driver.close();
  for (const follower of followers) follower.close();
  return received / ((lastAt - start) / 1000);
}

function rate(name: string, value: number): Figure {
  return {
    name,
    unit: "events/s",
    value: Math.round(value),
    goalKind: "min",
    note: `${FOLLOWERS} followers × ${DRAFTS} drafts`,
  };
}

export async function run(): Promise<Figure[]> {
  const dir = tempDir();
  writeFileSync(join(dir.path, "README.md"), "# bench\n");
  writeFileSync(join(dir.path, "scenario.yaml"), scenario);
  const postgres = await startTestPostgres();
  const running: CliProcess[] = [];
  try {
    const single = await startServer(dir.path, join(dir.path, "bench.db"));
    running.push(single.cli);
    const a = await startServer(dir.path, postgres.url);
    running.push(a.cli);
    const b = await startServer(dir.path, postgres.url);
    running.push(b.cli);

    const sqliteLatency = await answerLatency(single.wsUrl, single.wsUrl);
    const crossLatency = await answerLatency(a.wsUrl, b.wsUrl);
    const sqliteRate = await eventsPerSecond(single.wsUrl, [single.wsUrl]);
    const crossRate = await eventsPerSecond(a.wsUrl, [a.wsUrl, b.wsUrl]);
    for (const cli of running.splice(0)) await cli.kill();
    const { lateness } = await runWorker(
      [],
      { BENCH_MANY_PG: await postgres.newDatabase() },
      180_000,
    );
    const late = lateness.resolvedLate;
    return [
      latencyFigure(
        "answer → another client of the same server (1 server, SQLite)",
        sqliteLatency,
        {
          value: 100,
          on: "p99",
        },
      ),
      latencyFigure("answer on A → client on B (2 servers, PostgreSQL)", crossLatency, {
        value: 100,
        on: "p99",
      }),
      rate("events/s to followers, 1 server (SQLite)", sqliteRate),
      rate("events/s to followers on A and B (2 servers, PostgreSQL)", crossRate),
      {
        name: "deadline lateness, 10,000 pending questions (PostgreSQL, leased)",
        unit: "ms",
        median: median(late),
        p95: percentile(late, 95),
        p99: percentile(late, 99),
        goal: 20,
        goalKind: "max",
        judged: "p99",
        note: `${lateness.fired} deadlines fired in ${(lateness.elapsedMs / 1000).toFixed(1)} s; max ${Math.max(...late).toFixed(0)} ms`,
      },
      {
        name: "  deadline lateness on PostgreSQL, rounds 2–10",
        unit: "ms",
        median: median(lateness.laterRounds),
        p99: percentile(lateness.laterRounds, 99),
        goalKind: "max",
        note: "round 1 overlaps queueing all 10,000 questions",
      },
    ];
  } finally {
    for (const cli of running) await cli.kill();
    await postgres.stop();
    dir.remove();
  }
}
