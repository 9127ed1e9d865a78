import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { Database } from "better-sqlite3";
import { packageEntry, projectRoot } from "../paths.ts";

/** Often enough that the log stays small, which also keeps reads through it fast. */
const CHECKPOINT_EVERY_MS = 250;
/** SQLite's own default, for when the checkpoint thread is gone. */
const AUTO_CHECKPOINT_PAGES = 1000;
/** stop() waits this long for the thread to close its connection. */
const STOP_WAIT_MS = 2000;

export interface CheckpointResult {
  /** Frames in the write-ahead log, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
}

export interface WalCheckpointer {
  /** One checkpoint now, on the thread; rejects with the thread's error. */
  checkpointNow(): Promise<CheckpointResult>;
  /** Closes the thread's connection before it returns, so the caller's close is the last. */
  stop(): void;
}

/**
 * R12 (issue 15): SQLite checkpoints inside whichever commit crosses 1,000 pages of log, on the
 * server's only thread: a 45 ms stall for every session and page at that moment. Here a worker
 * thread with its own connection checkpoints instead, and the server's connection never does,
 * unless the thread fails (then SQLite's own checkpoints come back, so the log stays bounded).
 * With `threadAfterMs` the thread starts that much later (or at the first checkpointNow()).
 */
export function startWalCheckpointer(
  db: Database,
  path: string,
  {
    everyMs = CHECKPOINT_EVERY_MS,
    threadAfterMs = 0,
  }: { everyMs?: number; threadAfterMs?: number } = {},
): WalCheckpointer {
  const stopped = new Int32Array(new SharedArrayBuffer(4));
  // From now on: until the thread runs, the log only grows; it checkpoints on its first round.
  db.pragma("wal_autocheckpoint = 0");

  let worker: Worker | undefined;
  let stopping = false;
  let gone = false;
  let nextId = 0;
  const waiting = new Map<
    number,
    { resolve(result: CheckpointResult): void; reject(error: Error): void }
  >();
  const fail = (error: Error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
    if (!stopping && db.open) db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
  };
  const thread = (): Worker => {
    if (worker) return worker;
    clearTimeout(later);
    const driverPath = packageEntry("better-sqlite3");
    worker = new Worker(join(projectRoot, "src/server/store/walCheckpointWorker.cjs"), {
      workerData: { path, driverPath, everyMs, stopped: stopped.buffer },
    });
    worker.unref();
    worker.on("error", fail);
    worker.on("exit", () => {
      gone = true;
      fail(new Error("the checkpoint thread stopped"));
    });
    worker.on("message", (message: { id: number; error?: string } & CheckpointResult) => {
      const caller = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error !== undefined) caller?.reject(new Error(message.error));
      else caller?.resolve({ log: message.log, checkpointed: message.checkpointed });
    });
    return worker;
  };
  const later = threadAfterMs > 0 ? setTimeout(thread, threadAfterMs).unref() : undefined;
  if (!later) thread();

  return {
    checkpointNow() {
      const id = ++nextId;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        thread().postMessage({ type: "checkpoint", id });
      });
    },
    stop() {
      if (stopping) return;
      stopping = true;
      clearTimeout(later);
      if (gone || !worker) return;
      worker.postMessage({ type: "stop" });
      if (Atomics.wait(stopped, 0, 0, STOP_WAIT_MS) === "timed-out") void worker.terminate();
    },
  };
}
