// A model turn's server cost in a long session: the real server (`createServer`) in this
// process over a session of 10k / 50k entries (`fixtures/longSession.ts`), a model that
// answers at once (only the paid API's wire is faked). Per turn: event-loop busy time from
// the prompt to the turn's end, and the longest any other callback (a client's request) had
// to wait meanwhile, both from the event loop itself.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createServer } from "../src/server/http/server.ts";
import type { ModelProvider } from "../src/server/models/provider.ts";
import { type Figure, percentile } from "./figures.ts";
import { seedLongSession } from "./fixtures/longSession.ts";

const TURNS = Number(process.env.BENCH_LONG_TURNS ?? 40);
const SIZES = (process.env.BENCH_LONG_SIZES ?? "10000,50000").split(",").map(Number);
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const instantModel: ModelProvider = {
  ref: "scripted/demo",
  complete: async () => ({ text: "Noted.", toolCalls: [], stopReason: "end" }),
};

interface TurnFigures {
  busyMs: number[];
  delayMaxMs: number;
  getMaxMs: number;
  firstTurnMs: number;
}

async function measure(entries: number): Promise<TurnFigures> {
  const dir = mkdtempSync(join(tmpdir(), "plangate-bench-long-"));
  const dbPath = join(dir, "plangate.db");
  const { sessionId } = seedLongSession(dbPath, entries);
  // Seeding is the bench's own garbage (the log written in this process): collected here, not
  // in the server's first turns. Left to them, a 13 ms major GC fell in the first size's turns
  // (10k read p95 5.9–10.5 ms, and 0.7 ms when measured after 50k).
  collectGarbage();
  const server = await createServer({
    workspace: dir,
    dbPath,
    distDir: join(dir, "no-dist"),
    providerFor: () => instantModel,
  });
  try {
    // The seeded tail waits on a question; end that turn so prompts start turns of their own.
    server.sessions.cancelTurn(sessionId);
    await server.sessions.idle(sessionId);
    const turn = async () => {
      server.sessions.prompt(sessionId, "One more thing.");
      await server.sessions.idle(sessionId);
    };
    // The first turn after start is reported on its own (JIT warm-up).
    const firstStart = performance.now();
    await turn();
    const firstTurnMs = performance.now() - firstStart;

    // Busy time first, alone: a prober's own requests would count as the turn's work.
    const busyMs: number[] = [];
    for (let index = 0; index < TURNS; index++) {
      const before = performance.eventLoopUtilization();
      await turn();
      busyMs.push(performance.eventLoopUtilization(before).active);
    }
    // Then the same turns with another client requesting `/` back to back.
    const delay = monitorEventLoopDelay({ resolution: 1 });
    let getMaxMs = 0;
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const started = performance.now();
        await fetch(`http://127.0.0.1:${server.port}/`, {
          headers: { authorization: `Bearer ${server.token}` },
        }).then((response) => response.arrayBuffer());
        getMaxMs = Math.max(getMaxMs, performance.now() - started);
      }
    })();
    delay.enable();
    for (let index = 0; index < TURNS; index++) await turn();
    delay.disable();
    probing = false;
    await prober;
    return { busyMs, delayMaxMs: delay.max / 1e6, getMaxMs, firstTurnMs };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const entries of SIZES) {
    const measured = await measure(entries);
    const label = `${entries / 1000}k`;
    const note = `n=${measured.busyMs.length} turns; first turn after start ${measured.firstTurnMs.toFixed(0)} ms`;
    figures.push(
      {
        name: `long session ${label}: event-loop time per turn`,
        unit: "ms",
        median: percentile(measured.busyMs, 50),
        p95: percentile(measured.busyMs, 95),
        goal: 5,
        goalKind: "max",
        judged: "p95",
        note,
      },
      {
        name: `long session ${label}: longest wait of another callback`,
        unit: "ms",
        value: measured.delayMaxMs,
        goal: 20,
        goalKind: "max",
        note: "event-loop delay max while the turns ran",
      },
      {
        name: `  long session ${label}: slowest GET / meanwhile`,
        unit: "ms",
        value: measured.getMaxMs,
        goalKind: "max",
      },
    );
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { textTable } = await import("./figures.ts");
  console.log(textTable(await run()));
}
