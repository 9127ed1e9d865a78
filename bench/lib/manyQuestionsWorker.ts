// Runs under `node --expose-gc`; started by bench/manyQuestions.ts. Prints one JSON line.
// The real interaction registry over a real SessionLog on a temp SQLite file, real clock.
// With BENCH_MANY_PG=<postgres url>: only the lateness part, on that database, each deadline
// taken through its lease as a server on PostgreSQL does (S2).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AskUserQuestionItem,
  DEFAULT_SETTINGS,
  type SessionEntry,
} from "../../src/protocol/index.ts";
import type { Clock } from "../../src/server/clock.ts";
import { createInteractionRegistry } from "../../src/server/interactions/registry.ts";
import { openDatabase } from "../../src/server/store/database.ts";
import { takeLease } from "../../src/server/store/postgres/leases.ts";
import { SessionLog } from "../../src/server/store/sessionLog.ts";
import { asSqlDb, type SqlDb } from "../../src/server/store/sqlDb.ts";
import { openStore } from "../../src/server/store/store.ts";
import { genericQuestion } from "../fixtures/questions.ts";

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 1000);
const PG_URL = process.env.BENCH_MANY_PG;
const PER_SESSION = 10;
const GRACE_MS = 200;
const DEADLINE_MS = 1000;
/** Heads start spread over this window, so first deadlines fall between 1 and 3 s. */
const STAGGER_MS = 2000;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");
const collect = () => {
  gc();
  gc();
};
const build = { permissionMode: "build", planEnabled: false } as const;
const template = JSON.stringify(genericQuestion("TAG"));
/** Each question is parsed anew, as a model's tool call would be: no shared strings. */
const freshQuestions = (tag: string): AskUserQuestionItem[] =>
  JSON.parse(template.replace("TAG", tag)) as AskUserQuestionItem[];

function openLog(
  dir: string,
  name: string,
): {
  db: SqlDb;
  log: SessionLog;
  sessionIds: string[];
} {
  const store = PG_URL ? openStore(PG_URL, systemLikeClock) : undefined;
  const db = store?.db ?? asSqlDb(openDatabase(join(dir, name)));
  const log = store?.log ?? new SessionLog(db, systemLikeClock);
  const sessionIds: string[] = [];
  for (let s = 0; s < SESSIONS; s++) {
    const id = `sess_bench_${s}`;
    log.createSession({ id, title: `bench ${s}`, model: "scripted/demo", mode: build });
    sessionIds.push(id);
  }
  return { db, log, sessionIds };
}

const systemLikeClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Heap per pending interaction: 1,000 sessions × 10 queued, heads counting down. */
async function memory(dir: string) {
  const { db, log, sessionIds } = openLog(dir, "memory.db");
  let nextId = 0;
  const registry = createInteractionRegistry({
    append: (sessionId, entry) => log.append(sessionId, entry),
    clock: systemLikeClock,
    settings: () => DEFAULT_SETTINGS,
    timings: { graceMs: GRACE_MS, deadlineMs: 10 * 60_000 },
    newId: () => `int_${(++nextId).toString(36).padStart(12, "0")}`,
  });
  collect();
  const payloadBase = process.memoryUsage().heapUsed;
  const payloads = Array.from({ length: SESSIONS * PER_SESSION }, (_, i) => freshQuestions(`${i}`));
  collect();
  const payloadBytes = process.memoryUsage().heapUsed - payloadBase;
  payloads.length = 0;
  collect();

  const before = process.memoryUsage();
  const held: Promise<unknown>[] = [];
  const turns: AbortController[] = [];
  for (const [s, sessionId] of sessionIds.entries()) {
    const turn = new AbortController();
    turns.push(turn);
    for (let q = 0; q < PER_SESSION; q++) {
      held.push(
        registry.askQuestions(
          sessionId,
          {
            toolName: "AskUserQuestion",
            toolCallId: `call_${s}_${q}`,
            questions: freshQuestions(`${s}.${q}`),
          },
          turn.signal,
        ),
      );
    }
  }
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  const after = process.memoryUsage();
  const pending = sessionIds.reduce((sum, id) => sum + registry.pendingCount(id), 0);
  registry.close();
  db.close();
  return {
    pending,
    heapPerInteraction: (after.heapUsed - before.heapUsed) / pending,
    payloadPerInteraction: payloadBytes / (SESSIONS * PER_SESSION),
    rssDeltaMb: (after.rss - before.rss) / 2 ** 20,
    keepAlive: held.length + turns.length,
  };
}

/**
 * Deadline lateness: every head auto-continues at its deadline and the next question becomes
 * head and starts counting, so all 10,000 deadlines fire (10 rounds of 1,000 heads).
 */
async function lateness(dir: string) {
  const { db, log, sessionIds } = openLog(dir, "lateness.db");
  const targets = new Map<string, number>();
  const rounds = new Map<string, number>();
  const resolvedLate: number[] = [];
  /** Lateness of deadlines from the second round on, after every question is queued. */
  const laterRounds: number[] = [];
  const timerLate: number[] = [];
  let nextId = 0;
  const clock: Clock = {
    now: () => Date.now(),
    setTimeout: (callback, ms) => {
      const target = performance.now() + ms;
      return setTimeout(() => {
        timerLate.push(performance.now() - target);
        callback();
      }, ms);
    },
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  };
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    done = resolve;
  });
  const total = SESSIONS * PER_SESSION;
  const registry = createInteractionRegistry({
    append: (sessionId, entry: SessionEntry) => {
      const stored = log.append(sessionId, entry);
      if (entry.kind === "interaction.requested") {
        const round = Number(entry.request.toolCallId.split("_").at(-1));
        rounds.set(entry.request.interactionId, round);
      }
      if (entry.kind === "interaction.countdown" && entry.countdown.phase === "counting") {
        const { startedAt, deadlineAt } = entry.countdown;
        targets.set(entry.interactionId, performance.now() + (deadlineAt - startedAt));
      }
      if (entry.kind === "interaction.resolved" && entry.outcome.type === "answered") {
        const target = targets.get(entry.interactionId);
        if (target !== undefined) {
          const late = performance.now() - target;
          resolvedLate.push(late);
          if ((rounds.get(entry.interactionId) ?? 0) > 0) laterRounds.push(late);
        }
        if (resolvedLate.length === total) done();
      }
      return stored;
    },
    clock,
    settings: () => DEFAULT_SETTINGS,
    timings: { graceMs: GRACE_MS, deadlineMs: DEADLINE_MS },
    newId: () => `int_${++nextId}`,
    ...(PG_URL
      ? {
          takeDeadline: (interactionId: string) =>
            takeLease(db, {
              key: interactionId,
              holder: "bench",
              now: Date.now(),
              leaseMs: 10_000,
            }),
        }
      : {}),
  });
  const started = performance.now();
  for (const [s, sessionId] of sessionIds.entries()) {
    setTimeout(
      () => {
        const turn = new AbortController();
        for (let q = 0; q < PER_SESSION; q++) {
          void registry.askQuestions(
            sessionId,
            {
              toolName: "AskUserQuestion",
              toolCallId: `call_${s}_${q}`,
              questions: freshQuestions(`${s}.${q}`),
            },
            turn.signal,
          );
        }
      },
      (s / SESSIONS) * STAGGER_MS,
    );
  }
  const limit = setTimeout(done, STAGGER_MS + PER_SESSION * DEADLINE_MS + 30_000);
  await finished;
  clearTimeout(limit);
  const elapsed = performance.now() - started;
  registry.close();
  db.close();
  return { fired: resolvedLate.length, resolvedLate, laterRounds, timerLate, elapsedMs: elapsed };
}

const dir = mkdtempSync(join(tmpdir(), "plangate-bench-many-"));
try {
  const mem = PG_URL ? undefined : await memory(dir);
  collect();
  const late = await lateness(dir);
  console.log(JSON.stringify({ memory: mem, lateness: late }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
