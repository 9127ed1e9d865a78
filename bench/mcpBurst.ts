// Many agent calls at once through MCP: BENCH_MCP_CALLS (default 2,000; the goal is stated for
// 10,000) ask_user_question calls from BENCH_MCP_AGENTS agents (default 50, each its own MCP
// session and plangate session; at most the server's MCP connection limit, past which it
// retires idle connections and their calls are refused with 404), all sent at once over
// Streamable HTTP on loopback to the real server in its own process. Meanwhile a page, in a
// process of its own (bench/lib/pageGetter.ts), requests `/` back to back.
// Two phases, told apart by the session log (read from this process, not the server's loop):
// intake, until every call's question is stored (`interaction.requested`, counted whether or not
// it is still pending), then the deadlines. A head counts down from when it becomes the head
// (A2), so the first heads start with the burst: the deadline (BENCH_MCP_DEADLINE_MS, 60 s) must
// outlast the intake, or deadlines fall due mid-intake; those are counted and reported apart.
// Figures: `GET /` latency over both phases (p99 ≤ 50 ms); server heap per waiting question
// (heapUsed after gc, every call stored and none resolved − before, ÷ calls; ≤ 2 KB; `before`
// follows one question per agent, dismissed, so its session and compiled path are in it), which
// counts the HTTP request, its open SSE stream, the SDK's request state and the interaction;
// deadline lateness of the deadlines due after the intake, BENCH_MCP_ROUNDS (2) rounds of one
// head per session falling together (resolution entry `at` − the countdown's `deadlineAt`, from
// the log; p99 ≤ 20 ms), and as the agent sees it (its call's reply read − `deadlineAt`).
// Then the same burst made as MCP tasks: each call is answered at once with its task, and its
// agent polls tasks/get at the interval the server asks for; no request is held while it waits.

import { writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { systemClock } from "../src/server/clock.ts";
import { MAX_CONNECTIONS } from "../src/server/mcp/mcpBridge.ts";
import { messagesOf, RawMcpClient, type RawReply } from "../src/server/mcp/rawMcpClient.ts";
import { openDatabase } from "../src/server/store/database.ts";
import { SessionLog } from "../src/server/store/sessionLog.ts";
import { type Figure, median, percentile } from "./figures.ts";
import { genericQuestion } from "./fixtures/questions.ts";
import { BenchServer } from "./lib/benchServer.ts";
import { buildPage } from "./lib/build.ts";
import { type PageGetter, startPageGetter } from "./lib/pageGetter.ts";
import { sleep } from "./lib/session.ts";

const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 2000);
// B5: more agents than the server keeps connections for would have the idle ones retired
// before the burst, and their calls answered 404 instead of waiting (the 2026-12-03 runs with
// 200 agents measured that).
const AGENTS = Math.min(CALLS, MAX_CONNECTIONS, Number(process.env.BENCH_MCP_AGENTS ?? 50));
// Longer than the intake (10k calls: 40 s at load 5 with a 4096 backlog), so every call is stored and
// none resolved when the heap is read, and the first round falls due after the intake.
const DEADLINE_MS = Number(process.env.BENCH_MCP_DEADLINE_MS ?? 60_000);
// The defaults' proportion (60 s of 300 s): the countdown shows, and X5 notifies, before it ends.
const GRACE_MS = Math.round(DEADLINE_MS / 5);
/** Rounds of deadlines measured after the intake, one head per session each. */
const ROUNDS = Number(process.env.BENCH_MCP_ROUNDS ?? 2);
/** The bench gives up on an intake this long (its figures then say so). */
const INTAKE_LIMIT_MS = DEADLINE_MS * (ROUNDS + 1);

/** Task mode: how long after the intake the heap is read (past undici's 4 s keep-alive). */
const TASK_SETTLE_MS = 5_000;

const TAG = /\(burst (\d+)\)/;

/** What tasks/get (and a call made as a task) tells the agent. */
interface TaskState {
  taskId: string;
  status: string;
  pollInterval?: number;
}

interface Usage {
  memory: NodeJS.MemoryUsage;
}

/** What the log holds so far: questions stored and resolved (a read-only connection). */
function intakeCounter(dbPath: string): () => { requested: number; resolved: number } {
  let db: Database.Database | undefined;
  return () => {
    db ??= new Database(dbPath, { readonly: true, fileMustExist: true });
    const rows = db
      .prepare(
        "SELECT kind, count(*) AS n FROM entries WHERE kind IN ('interaction.requested', 'interaction.resolved') GROUP BY kind",
      )
      .all() as Array<{ kind: string; n: number }>;
    const count = (kind: string) => rows.find((row) => row.kind === kind)?.n ?? 0;
    return { requested: count("interaction.requested"), resolved: count("interaction.resolved") };
  };
}

interface Deadline {
  /** The countdown's `deadlineAt` (epoch ms). */
  due: number;
  /** The resolution entry's `at`. */
  resolvedAt: number;
  /** When the agent read its call's reply (epoch ms), if it did. */
  seenAt: number | undefined;
}

/** Each counted deadline that fired, from the log; `seen` maps a call's tag to its reply time. */
function firedDeadlines(dbPath: string, seen: ReadonlyMap<number, number>): Deadline[] {
  const db = openDatabase(dbPath);
  const fired: Deadline[] = [];
  try {
    const log = new SessionLog(db, systemClock);
    const tags = new Map<string, number>();
    const deadlines = new Map<string, number>();
    for (const summary of log.listSessions()) {
      for (const { at, entry } of log.entriesAfter(summary.id, 0)) {
        if (entry.kind === "interaction.requested" && entry.request.kind === "question") {
          const tag = TAG.exec(entry.request.questions[0]?.question ?? "")?.[1];
          if (tag !== undefined) tags.set(entry.request.interactionId, Number(tag));
        } else if (entry.kind === "interaction.countdown" && entry.countdown.phase === "counting") {
          deadlines.set(entry.interactionId, entry.countdown.deadlineAt);
        } else if (entry.kind === "interaction.resolved") {
          const due = deadlines.get(entry.interactionId);
          const tag = tags.get(entry.interactionId);
          if (due !== undefined) {
            fired.push({
              due,
              resolvedAt: at,
              seenAt: tag === undefined ? undefined : seen.get(tag),
            });
          }
        }
      }
    }
  } finally {
    db.close();
  }
  return fired;
}

/** The calls held open as the spec's plain tools/call, then the same burst made as MCP tasks. */
export async function run(): Promise<Figure[]> {
  return [...(await burst("held")), ...(await burst("task"))];
}

/**
 * `held`: each call's request stays open until its answer (B3). `task`: each call is made as an
 * MCP task and answered at once; its agent then polls tasks/get at the interval the server asks.
 */
async function burst(mode: "held" | "task"): Promise<Figure[]> {
  const label = mode === "task" ? "MCP burst (tasks)" : "MCP burst";
  const { outDir } = await buildPage();
  const server = new BenchServer({
    distDir: outDir,
    // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=…" profiles the server.
    nodeArgs: [
      "--expose-gc",
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
    ],
    graceMs: GRACE_MS,
    deadlineMs: DEADLINE_MS,
  });
  const controllers: AbortController[] = [];
  let getter: PageGetter | undefined;
  try {
    await server.start();
    const endpoint = `${server.origin}/mcp`;
    const agents: RawMcpClient[] = [];
    for (let a = 0; a < AGENTS; a++) {
      const agent = new RawMcpClient(endpoint, server.token);
      await agent.initialize(`burst-${a}`);
      agents.push(agent);
    }
    const stored = intakeCounter(server.dbPath);
    const unwarmed = await server.call<Usage>({ cmd: "usage", gc: true });
    // One question per agent, dismissed: each agent's plangate session is made and the path
    // compiled before `before`, so the heap figure is what one more waiting question costs, as
    // bench/experiments/mcpHeap.ts measures it. The figure with those counted is a sub-row.
    const warmUps = agents.map((agent) =>
      agent
        .post(
          agent.request("tools/call", {
            name: "ask_user_question",
            arguments: { questions: genericQuestion("warm-up") },
            ...(mode === "task" ? { task: { ttl: 600_000 } } : {}),
          }),
          {},
        )
        .catch(() => undefined),
    );
    for (let waited = 0; stored().requested < AGENTS; waited += 50) {
      if (waited > 30_000) throw new Error(`only ${stored().requested} warm-up questions stored`);
      await sleep(50);
    }
    await server.call({ cmd: "cancelAllPending" });
    await Promise.all(warmUps);
    const warm = stored();
    const counts = () => {
      const now = stored();
      return { requested: now.requested - warm.requested, resolved: now.resolved - warm.resolved };
    };
    const before = await server.call<Usage>({ cmd: "usage", gc: true });

    // A page already open, in a process of its own: its own kept-alive connection, connected
    // before the burst, so the figure is the server's loop, not the senders' nor a new
    // connection's wait behind 10k in the accept queue.
    getter = await startPageGetter(`${server.origin}/`, server.token);
    await sleep(200);

    const sent = Date.now();
    const calls: Promise<unknown>[] = [];
    /** Call tag → when its reply was read (epoch ms). */
    const seen = new Map<number, number>();
    let refused = 0;
    let failed = 0;
    const failures = new Map<string, number>();
    let settled = 0;
    /** Task mode: polls the task until it ends, as an agent does; when it did is when it is seen. */
    const poll = async (agent: RawMcpClient, reply: RawReply, i: number, signal: AbortSignal) => {
      const created = messagesOf(reply)[0]?.result as { task?: TaskState } | undefined;
      let task = created?.task;
      if (!task) return false;
      while (task.status === "working" && !signal.aborted) {
        await sleep(task.pollInterval ?? 1000);
        if (signal.aborted) return true;
        const next = await agent.post(
          agent.request("tasks/get", { taskId: task.taskId }),
          {},
          { signal },
        );
        task = messagesOf(next)[0]?.result as TaskState;
      }
      if (!signal.aborted) seen.set(i, Date.now());
      return true;
    };
    for (let i = 0; i < CALLS; i++) {
      const agent = agents[i % AGENTS] as RawMcpClient;
      const controller = new AbortController();
      controllers.push(controller);
      calls.push(
        agent
          .post(
            agent.request("tools/call", {
              name: "ask_user_question",
              arguments: { questions: genericQuestion(`burst ${i}`) },
              ...(mode === "task" ? { task: { ttl: 600_000 } } : {}),
            }),
            {},
            { signal: controller.signal },
          )
          .then(async (reply) => {
            if (reply.status !== 200) refused += 1;
            else if (mode === "task") {
              if (!(await poll(agent, reply, i, controller.signal))) refused += 1;
            } else seen.set(i, Date.now());
          })
          .catch((error: unknown) => {
            // Not a refusal: the call never got an answer (reset, or aborted by the bench).
            if (controller.signal.aborted) return;
            failed += 1;
            const reason =
              error instanceof Error ? String(error.cause ?? error.message) : String(error);
            failures.set(reason, (failures.get(reason) ?? 0) + 1);
          })
          .finally(() => {
            settled += 1;
          }),
      );
    }

    // Intake: every call stored, or refused, or the bench's limit.
    let taken = counts();
    while (taken.requested + refused + failed < CALLS && Date.now() - sent < INTAKE_LIMIT_MS) {
      await sleep(50);
      taken = counts();
    }
    const intakeEnd = Date.now();
    const intakeMs = intakeEnd - sent;
    const intakeDone = taken.requested + refused + failed >= CALLS;
    // Tasks: the burst's sockets, idle once each call has its task, close after the clients'
    // keep-alive (undici's 4 s); what stays is what a waiting task holds, polls included.
    if (mode === "task") await sleep(TASK_SETTLE_MS);
    const during = await server.call<Usage>({ cmd: "usage", gc: true });
    const atHeap = counts();
    const pendingAtHeap = atHeap.requested - atHeap.resolved;

    // Deadlines: ROUNDS rounds of one head per session after the intake (each head counts
    // DEADLINE_MS from when the one before it resolved), bounded by the time they take.
    const resolvedAtIntake = taken.resolved;
    const want = resolvedAtIntake + ROUNDS * AGENTS;
    const deadlinesLimit = sent + (ROUNDS + 1) * DEADLINE_MS + 10_000;
    while (counts().resolved < Math.min(want, CALLS) && Date.now() < deadlinesLimit) {
      await sleep(100);
    }
    // The agents read their last replies.
    const readBy = Date.now() + 1000;
    while (settled < Math.min(CALLS, want) && Date.now() < readBy) await sleep(50);
    const gets = await getter.stop();

    const fired = firedDeadlines(server.dbPath, seen);
    // BENCH_MCP_DUMP=file keeps each fired deadline (due, written, seen; epoch ms) and each GET
    // (end, ms) for a look.
    if (process.env.BENCH_MCP_DUMP) {
      writeFileSync(process.env.BENCH_MCP_DUMP, JSON.stringify({ sent, intakeEnd, fired, gets }));
    }
    const afterIntake = fired.filter((deadline) => deadline.due >= intakeEnd);
    const duringIntake = fired.filter((deadline) => deadline.due < intakeEnd);
    const lateness = afterIntake.map((deadline) => deadline.resolvedAt - deadline.due);
    const seenLateness = afterIntake
      .filter((deadline) => deadline.seenAt !== undefined)
      .map((deadline) => (deadline.seenAt as number) - deadline.due);
    const intakeLateness = duringIntake.map((deadline) => deadline.resolvedAt - deadline.due);
    for (const controller of controllers) controller.abort();
    await Promise.all(calls);

    const getsInIntake = gets.filter((get) => get.at <= intakeEnd).map((get) => get.ms);
    const getsAfter = gets.filter((get) => get.at > intakeEnd).map((get) => get.ms);
    const intake = intakeDone
      ? `${taken.requested} stored after ${intakeMs} ms`
      : `only ${taken.requested} of ${CALLS} stored after ${intakeMs} ms (limit)`;
    const failedNote = [...failures].map(([reason, n]) => `${n}× ${reason}`).join(", ");
    const note = `${CALLS} calls from ${AGENTS} MCP sessions; ${intake}; ${refused} refused; ${failed} failed${failed > 0 ? ` (${failedNote})` : ""}; grace ${GRACE_MS}, deadline ${DEADLINE_MS} ms`;
    return [
      {
        // Judged on the intake: a back-to-back prober takes one sample per stall, so the
        // calm wait after it would bury the intake's tail.
        name: `${label}: GET / while the calls arrive`,
        unit: "ms",
        median: median(getsInIntake),
        p95: percentile(getsInIntake, 95),
        p99: percentile(getsInIntake, 99),
        goal: 50,
        goalKind: "max",
        judged: "p99",
        note: `n=${getsInIntake.length} GETs until every call was stored; max ${Math.max(...getsInIntake).toFixed(0)} ms (one sample per stall: each GET waits for the one before); ${note}`,
      },
      {
        name: `  ${label}: GET / while they wait and their deadlines fire`,
        unit: "ms",
        median: median(getsAfter),
        p95: percentile(getsAfter, 95),
        p99: percentile(getsAfter, 99),
        goalKind: "max",
        judged: "p99",
        note: `n=${getsAfter.length} GETs; max ${Math.max(...getsAfter).toFixed(0)} ms`,
      },
      {
        name: `${label}: server heap per waiting question`,
        unit: "B",
        value: (during.memory.heapUsed - before.memory.heapUsed) / Math.max(1, pendingAtHeap),
        goal: 2048,
        goalKind: "max",
        note: `heapUsed after gc${mode === "task" ? `, ${TASK_SETTLE_MS / 1000} s after the intake` : ""}, after one dismissed question per agent → ${pendingAtHeap} pending (${atHeap.requested} stored, ${atHeap.resolved} resolved); RSS +${((during.memory.rss - before.memory.rss) / 2 ** 20).toFixed(1)} MB; ${note}`,
      },
      {
        name: `  ${label}: heap per waiting question, each agent's first question counted`,
        unit: "B",
        value: (during.memory.heapUsed - unwarmed.memory.heapUsed) / Math.max(1, pendingAtHeap),
        goalKind: "max",
        note: `from before any question (as recorded up to stop 39): its ${AGENTS} plangate sessions and the compiled path included`,
      },
      {
        name: `${label}: deadline lateness after the intake`,
        unit: "ms",
        median: median(lateness),
        p95: percentile(lateness, 95),
        p99: percentile(lateness, 99),
        goal: 20,
        goalKind: "max",
        judged: "p99",
        note: `n=${lateness.length} deadlines due after every call was stored (${ROUNDS} round(s) of ${AGENTS} heads due together); max ${lateness.length > 0 ? Math.max(...lateness) : "—"} ms; resolution entry \`at\` − \`deadlineAt\`, 1 ms resolution`,
      },
      {
        name: `  ${label}: deadline → the agent reads its reply`,
        unit: "ms",
        median: median(seenLateness),
        p95: percentile(seenLateness, 95),
        p99: percentile(seenLateness, 99),
        goalKind: "max",
        judged: "p99",
        note: `n=${seenLateness.length}; ${mode === "task" ? "when the agent's poll found the task ended" : "the agents' Date.now when the reply was read"} − \`deadlineAt\``,
      },
      {
        name: `  ${label}: deadlines due during the intake`,
        unit: "deadlines",
        value: duringIntake.length,
        goalKind: "max",
        note:
          intakeLateness.length > 0
            ? `lateness p50 ${median(intakeLateness)} · max ${Math.max(...intakeLateness)} ms; the deadline was shorter than the intake, so the phases overlap`
            : "none: the phases do not overlap",
      },
    ];
  } finally {
    getter?.kill();
    for (const controller of controllers) controller.abort();
    await server.stop();
  }
}
