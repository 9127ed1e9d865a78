import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { guardStorage } from "./errors.ts";
import { migrate } from "./migrations.ts";

/**
 * Opens (creating if needed) the session database. WAL with synchronous=NORMAL keeps every
 * committed transaction across a killed process (R6); busy_timeout lets a second reader wait.
 */
export function openDatabase(path: string): Database {
  return guardStorage("open the session database", () => {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    const db = new BetterSqlite3(path);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("busy_timeout = 5000");
    db.pragma("foreign_keys = ON");
    migrate(db);
    return db;
  });
}
