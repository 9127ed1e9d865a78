import { closeSync, existsSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { systemClock } from "../clock.ts";
import { tempDir } from "../testing/helpers.ts";
import { startTestServer } from "../testing/testServer.ts";
import { openStore } from "./store.ts";
import { explainUnwritable, UnwritableDatabaseError } from "./unwritableDatabase.ts";

/** A plangate database that SQLite opens read-only whoever runs it: its header says so. */
function readOnlyDatabase(path: string): void {
  openStore(path, systemClock).close();
  const fd = openSync(path, "r+");
  try {
    // The header's "write version": above 2, SQLite may read the file but never write it.
    writeSync(fd, Buffer.from([3]), 0, 1, 18);
  } finally {
    closeSync(fd);
  }
}

describe("a session database that cannot be written", () => {
  it("[R13] is refused at start with a message naming the file and what to do, and nothing in it changes", async () => {
    const dir = tempDir();
    try {
      const path = join(dir.path, "sessions.db");
      readOnlyDatabase(path);
      const before = readFileSync(path);
      let caught: unknown;
      try {
        openStore(path, systemClock);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(UnwritableDatabaseError);
      expect((caught as Error).message).toBe(
        `the session database ${path} is read-only, so plangate cannot keep sessions in it; nothing in it was changed. ` +
          "Make it writable for the user running plangate (chmod u+w on sessions.db and on any sessions.db-wal and sessions.db-shm beside it, or run plangate as their owner), or give plangate another file with --db.",
      );
      expect(readFileSync(path).equals(before)).toBe(true);
    } finally {
      dir.remove();
    }
  });

  it("[R13] stops a server's start with that message and leaves no lock behind", async () => {
    const dir = tempDir();
    try {
      const path = join(dir.path, "sessions.db");
      readOnlyDatabase(path);
      await expect(startTestServer({ dbPath: path })).rejects.toThrow(
        `the session database ${path} is read-only`,
      );
      expect(existsSync(`${path}.lock`)).toBe(false);
    } finally {
      dir.remove();
    }
  });

  it("[R13] reads the driver's or file system's code: only what cannot be written is explained", () => {
    const dir = tempDir();
    try {
      const path = join(dir.path, "sessions.db");
      expect(explainUnwritable(path, "SQLITE_READONLY_DIRECTORY")?.message).toMatch(
        new RegExp(
          `^the folder ${dir.path} of the session database sessions\\.db cannot be written`,
        ),
      );
      expect(explainUnwritable(path, "EROFS")?.message).toMatch(/is on a read-only file system/);
      expect(explainUnwritable(path, "SQLITE_CONSTRAINT")).toBeUndefined();
      expect(explainUnwritable(path, "ENOSPC")).toBeUndefined();
      // A folder it can write in, a file that is not there: something else went wrong.
      expect(explainUnwritable(path, "SQLITE_CANTOPEN")).toBeUndefined();
      expect(explainUnwritable(":memory:", "SQLITE_READONLY")).toBeUndefined();
    } finally {
      dir.remove();
    }
  });
});
