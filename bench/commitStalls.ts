// Commit stalls (R12, issue 15): BENCH_COMMITS (20,000) session-log appends of a 600-byte
// entry, each timed, with the event loop given a turn every 100 appends, twice: SQLite's own
// checkpoints (every 1,000 pages of log, inside whichever commit crosses it, on the server's
// thread), then the server's setup (checkpoints on a worker thread, walCheckpointer.ts). The
// figure is the tail of one commit as the server's thread feels it; a checkpoint copies the log
// into the file and fsyncs it, and every session and page waits behind that commit.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../src/server/clock.ts";
import { openDatabase } from "../src/server/store/database.ts";
import { SessionLog } from "../src/server/store/sessionLog.ts";
import { startWalCheckpointer } from "../src/server/store/walCheckpointer.ts";
import { type Figure, median, percentile } from "./figures.ts";

const COMMITS = Number(process.env.BENCH_COMMITS ?? 20_000);
const TEXT = "x".repeat(600);

async function commitTimes(offThread: boolean): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), "plangate-commits-"));
  const path = join(dir, "plangate.db");
  const db = openDatabase(path);
  const checkpointer = offThread ? startWalCheckpointer(db, path) : undefined;
  try {
    const log = new SessionLog(db, systemClock);
    log.createSession({
      id: "s",
      title: "commits",
      model: "scripted/demo",
      mode: { permissionMode: "build", planEnabled: false },
    });
    const times: number[] = [];
    for (let n = 0; n < COMMITS; n++) {
      const started = performance.now();
      log.append("s", { kind: "user.message", text: TEXT });
      times.push(performance.now() - started);
      if (n % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
    }
    return times;
  } finally {
    checkpointer?.stop();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** R12 / issue 15: no client delayed more than 20 ms, held against one commit's p99.9. */
const STALL_GOAL_MS = 20;

function figures(label: string, times: number[], judged: boolean): Figure[] {
  const sorted = [...times].sort((a, b) => a - b);
  const over = times.filter((ms) => ms > 5).length;
  return [
    {
      name: `commit stalls: one append, ${label}`,
      unit: "ms",
      median: median(times),
      p99: percentile(times, 99),
      goalKind: "max",
      note: `n=${times.length}; max ${sorted.at(-1)?.toFixed(1)} ms`,
    },
    {
      name: `  commit stalls: p99.9 of one append, ${label}`,
      unit: "ms",
      value: percentile(times, 99.9),
      ...(judged ? { goal: STALL_GOAL_MS } : {}),
      goalKind: "max",
      note: "one in a thousand commits waits this long or longer",
    },
    {
      name: `  commit stalls: appends over 5 ms, ${label}`,
      unit: "appends",
      value: over,
      goalKind: "max",
      note: `of ${times.length}`,
    },
  ];
}

export async function run(): Promise<Figure[]> {
  const onThread = await commitTimes(false);
  const offThread = await commitTimes(true);
  return [
    ...figures("checkpoints on the server's thread (SQLite's default)", onThread, false),
    ...figures("checkpoints on a worker thread (the server)", offThread, true),
  ];
}
