// Many waiting questions: 1,000 sessions × 10 queued questions in one registry over a real
// SessionLog (temp SQLite), real clock. Memory: V8 heap after − before queueing (both after
// gc), divided by the count. Lateness: grace 200 ms, deadline 1 s, heads started over 2 s;
// each head auto-continues at its deadline and the next in its queue starts counting, so
// 10 rounds × 1,000 heads = 10,000 deadlines fire. Lateness = resolution written − deadline.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { type Figure, median, percentile } from "./figures.ts";
import { repoRoot } from "./lib/build.ts";

interface WorkerResult {
  /** Absent on PostgreSQL, where only lateness is measured. */
  memory?: {
    pending: number;
    heapPerInteraction: number;
    payloadPerInteraction: number;
    rssDeltaMb: number;
  };
  lateness: {
    fired: number;
    resolvedLate: number[];
    laterRounds: number[];
    timerLate: number[];
    elapsedMs: number;
  };
}

export type LatenessResult = WorkerResult["lateness"];

export function runWorker(
  nodeArgs: string[] = [],
  env: Record<string, string> = {},
  timeoutMs = 120_000,
): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--expose-gc",
        ...nodeArgs,
        "--import",
        "tsx",
        join(repoRoot, "bench/lib/manyQuestionsWorker.ts"),
      ],
      { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } },
    );
    let out = "";
    let err = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line.startsWith("{")) {
        reject(new Error(`worker exited with ${code}:\n${err}${out}`));
        return;
      }
      resolve(JSON.parse(line) as WorkerResult);
    });
  });
}

export async function run(): Promise<Figure[]> {
  const { memory, lateness } = await runWorker();
  if (!memory) throw new Error("the worker measured no memory");
  const late = lateness.resolvedLate;
  return [
    {
      name: "many questions: heap per pending interaction",
      unit: "B",
      value: memory.heapPerInteraction,
      goal: 2048,
      goalKind: "max",
      note: `${memory.pending} pending; question payload alone ${memory.payloadPerInteraction.toFixed(0)} B; RSS +${memory.rssDeltaMb.toFixed(1)} MB`,
    },
    {
      name: "many questions: deadline lateness",
      unit: "ms",
      median: median(late),
      p95: percentile(late, 95),
      p99: percentile(late, 99),
      goal: 20,
      goalKind: "max",
      judged: "p99",
      note: `${lateness.fired} deadlines fired in ${(lateness.elapsedMs / 1000).toFixed(1)} s; max ${Math.max(...late).toFixed(1)} ms`,
    },
    {
      name: "  many questions: lateness, rounds 2–10",
      unit: "ms",
      median: median(lateness.laterRounds),
      p99: percentile(lateness.laterRounds, 99),
      goalKind: "max",
      note: "round 1 overlaps queueing all 10,000 questions (11,000 SQLite writes in 2 s)",
    },
    {
      name: "  many questions: timer callback lateness",
      unit: "ms",
      median: median(lateness.timerLate),
      p99: percentile(lateness.timerLate, 99),
      goalKind: "max",
      note: "setTimeout alone, before the registry writes",
    },
  ];
}
