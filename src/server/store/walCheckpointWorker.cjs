// R12 (issue 15): the thread that copies the SQLite write-ahead log into the database file, so
// no commit on the server's thread pays for a checkpoint (tens of ms, with an fsync). Plain
// CommonJS because it is loaded by path, from the sources, under tsx and from the bundle.
const { parentPort, workerData } = require("node:worker_threads");

const stopped = new Int32Array(workerData.stopped);
const Database = require(workerData.driverPath);
const db = new Database(workerData.path, { fileMustExist: true });

function checkpoint() {
  // PASSIVE never waits for readers or writers: what it cannot copy now, a later one will.
  const [result] = db.pragma("wal_checkpoint(PASSIVE)");
  return { log: result.log, checkpointed: result.checkpointed };
}

function tryCheckpoint() {
  try {
    return checkpoint();
  } catch (error) {
    // A full disk or a busy file: the log keeps every commit; the next round tries again.
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

const timer = setInterval(tryCheckpoint, workerData.everyMs);

parentPort.on("message", (message) => {
  if (message.type === "checkpoint") {
    parentPort.postMessage({ type: "checkpointed", id: message.id, ...tryCheckpoint() });
  } else if (message.type === "stop") {
    clearInterval(timer);
    try {
      db.close();
    } finally {
      Atomics.store(stopped, 0, 1);
      Atomics.notify(stopped, 0);
      parentPort.close();
    }
  }
});
