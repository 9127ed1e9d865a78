// Many agent calls at once through MCP: BENCH_MCP_CALLS (default 2,000; the goal is stated for
// 10,000) ask_user_question calls from BENCH_MCP_AGENTS agents (default 50, each its own MCP
// session and plangate session; at most the server's MCP connection limit, past which it
// retires idle connections and their calls are refused with 404), all sent at once over
// Streamable HTTP on loopback to the real server in its own process. Meanwhile another client
// requests `/` back to back.
// Figures: `GET /` latency while the calls arrive and wait (p99 ≤ 50 ms); server heap per
// waiting question (heapUsed after gc, all calls pending − before, ÷ calls; ≤ 2 KB), which
// counts the HTTP request, its open SSE stream, the SDK's request state and the interaction;
// deadline lateness of the first round(s) of heads (resolution entry `at` − the countdown's
// `deadlineAt`, read from the session log afterwards; p99 ≤ 20 ms).

import { systemClock } from "../src/server/clock.ts";
import { MAX_CONNECTIONS } from "../src/server/mcp/mcpBridge.ts";
import { RawMcpClient } from "../src/server/mcp/rawMcpClient.ts";
import { openDatabase } from "../src/server/store/database.ts";
import { SessionLog } from "../src/server/store/sessionLog.ts";
import { type Figure, median, percentile } from "./figures.ts";
import { genericQuestion } from "./fixtures/questions.ts";
import { BenchServer } from "./lib/benchServer.ts";
import { buildPage } from "./lib/build.ts";
import { sleep } from "./lib/session.ts";

const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 2000);
// B5: more agents than the server keeps connections for would have the idle ones retired
// before the burst, and their calls answered 404 instead of waiting (the 2026-12-03 runs with
// 200 agents measured that).
const AGENTS = Math.min(CALLS, MAX_CONNECTIONS, Number(process.env.BENCH_MCP_AGENTS ?? 50));
// Long enough that no head counts down before the heap is read with every call pending, even
// when the server takes seconds to take the burst in.
const GRACE_MS = Number(process.env.BENCH_MCP_GRACE_MS ?? 20_000);
const DEADLINE_MS = 1000;
/** How long the heads count after everything is pending: a few rounds of deadlines. */
const ROUNDS_MS = Number(process.env.BENCH_MCP_ROUNDS_MS ?? 4000);

interface Usage {
  memory: NodeJS.MemoryUsage;
}

export async function run(): Promise<Figure[]> {
  const { outDir } = await buildPage();
  // The heads wait out a long grace while memory is measured; timings are per server, so
  // the grace is short and the heap is read the moment all calls are pending.
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
  let probing = true;
  try {
    await server.start();
    const endpoint = `${server.origin}/mcp`;
    const agents: RawMcpClient[] = [];
    for (let a = 0; a < AGENTS; a++) {
      const agent = new RawMcpClient(endpoint, server.token);
      await agent.initialize(`burst-${a}`);
      agents.push(agent);
    }
    const before = await server.call<Usage>({ cmd: "usage", gc: true });

    const gets: number[] = [];
    const prober = (async () => {
      while (probing) {
        const started = performance.now();
        await fetch(`${server.origin}/`, {
          headers: { authorization: `Bearer ${server.token}` },
        }).then((response) => response.arrayBuffer());
        gets.push(performance.now() - started);
        await sleep(5);
      }
    })();
    await sleep(200);

    const sent = performance.now();
    const calls: Promise<unknown>[] = [];
    let refused = 0;
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
            }),
            {},
            { signal: controller.signal },
          )
          .then((reply) => {
            if (reply.status !== 200) refused += 1;
          })
          .catch(() => undefined),
      );
    }
    let pending = 0;
    for (;;) {
      pending = (await server.call<{ count: number }>({ cmd: "pendingTotal" })).count;
      // Past the grace heads start resolving: the heap is read with what is pending then.
      if (pending >= CALLS || performance.now() - sent > GRACE_MS * 0.8) break;
      await sleep(50);
    }
    const pendingAt = performance.now() - sent;
    const during = await server.call<Usage>({ cmd: "usage", gc: true });
    const getsWhileArriving = gets.length;
    // The first heads reach their deadlines one grace + deadline after they were queued.
    await sleep(Math.max(0, GRACE_MS + DEADLINE_MS - (performance.now() - sent)) + ROUNDS_MS);
    probing = false;
    await prober;

    // Lateness from the log: each resolution after its countdown's deadline.
    const db = openDatabase(server.dbPath);
    const lateness: number[] = [];
    try {
      const log = new SessionLog(db, systemClock);
      const deadlines = new Map<string, number>();
      for (const summary of log.listSessions()) {
        for (const { at, entry } of log.entriesAfter(summary.id, 0)) {
          if (entry.kind === "interaction.countdown" && entry.countdown.phase === "counting") {
            deadlines.set(entry.interactionId, entry.countdown.deadlineAt);
          } else if (entry.kind === "interaction.resolved") {
            const deadline = deadlines.get(entry.interactionId);
            if (deadline !== undefined) lateness.push(at - deadline);
          }
        }
      }
    } finally {
      db.close();
    }
    for (const controller of controllers) controller.abort();
    await Promise.all(calls);

    const heapPer = (during.memory.heapUsed - before.memory.heapUsed) / Math.max(1, pending);
    const note = `${CALLS} calls from ${AGENTS} MCP sessions; ${pending} pending after ${pendingAt.toFixed(0)} ms; ${refused} refused`;
    return [
      {
        name: "MCP burst: GET / while the calls arrive and wait",
        unit: "ms",
        median: median(gets),
        p95: percentile(gets, 95),
        p99: percentile(gets, 99),
        goal: 50,
        goalKind: "max",
        judged: "p99",
        note: `n=${gets.length} GETs (${getsWhileArriving} until all pending); max ${Math.max(...gets).toFixed(0)} ms; ${note}`,
      },
      {
        name: "MCP burst: server heap per waiting question",
        unit: "B",
        value: heapPer,
        goal: 2048,
        goalKind: "max",
        note: `heapUsed after gc, before → all pending; RSS +${((during.memory.rss - before.memory.rss) / 2 ** 20).toFixed(1)} MB; ${note}`,
      },
      {
        name: "MCP burst: deadline lateness",
        unit: "ms",
        median: median(lateness),
        p95: percentile(lateness, 95),
        p99: percentile(lateness, 99),
        goal: 20,
        goalKind: "max",
        judged: "p99",
        note: `n=${lateness.length} deadlines fired by ${ROUNDS_MS / 1000} s after the first could (grace ${GRACE_MS} ms, deadline ${DEADLINE_MS} ms); 1 ms resolution (entry \`at\`)`,
      },
    ];
  } finally {
    probing = false;
    for (const controller of controllers) controller.abort();
    await server.stop();
  }
}
