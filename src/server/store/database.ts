import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { packageEntry } from "../paths.ts";
import { codeOf, guardStorage } from "./errors.ts";
import { migrate } from "./migrations.ts";
import { explainUnwritable } from "./unwritableDatabase.ts";

/** `PRAGMA application_id` of a plangate database: "plgt". */
export const PLANGATE_APPLICATION_ID = 0x706c6774;
const SQLITE_MAGIC = "SQLite format 3\0";
/** Tables every plangate database has had since its first schema version. */
const PLANGATE_TABLES = ["sessions", "entries", "settings"];

/** R13: the file at `--db` belongs to something else; nothing in it was changed. */
export class ForeignDatabaseError extends Error {
  constructor(path: string, why: string) {
    super(
      `${path} ${why}, so plangate will not use it (nothing in it was changed). Give plangate its own file with --db.`,
    );
    this.name = "ForeignDatabaseError";
  }
}

let driverOptions: { nativeBinding?: string } | undefined;

/**
 * The driver's compiled addon, named for it. The server bundle carries the driver's JavaScript
 * (compiled from the code cache at start, issue 15: restart), and from there the driver's own
 * search for its addon, which starts at the file that loads it, would not find the package.
 */
function driver(): { nativeBinding?: string } {
  if (driverOptions) return driverOptions;
  const addon = join(packageEntry("better-sqlite3"), "../../build/Release/better_sqlite3.node");
  driverOptions = existsSync(addon) ? { nativeBinding: addon } : {};
  return driverOptions;
}

/**
 * Opens (creating if needed) the session database. WAL with synchronous=NORMAL keeps every
 * committed transaction across a killed process (R6); busy_timeout lets a second reader wait.
 * An existing file is first checked to be plangate's own (R13), before WAL or a migration
 * could change it.
 */
export function openDatabase(path: string): Database {
  if (path !== ":memory:") refuseForeignDatabase(path);
  try {
    return openChecked(path);
  } catch (error) {
    throw explainUnwritable(path, codeOf(error)) ?? error;
  }
}

function openChecked(path: string): Database {
  return guardStorage("open the session database", () => {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    const db = new BetterSqlite3(path, driver());
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("busy_timeout = 5000");
    db.pragma("foreign_keys = ON");
    migrate(db);
    db.pragma(`application_id = ${PLANGATE_APPLICATION_ID}`);
    return db;
  });
}

/**
 * R13: reads the file's header bytes, and only when they do not say (a database made before
 * plangate stamped its id, or another application's) looks at its tables through a read-only
 * connection. Throws ForeignDatabaseError for anything that is not plangate's.
 */
function refuseForeignDatabase(path: string): void {
  const size = statSync(path, { throwIfNoEntry: false })?.size;
  if (size === undefined || size === 0) return;
  const header = Buffer.alloc(100);
  const fd = openSync(path, "r");
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  if (header.toString("latin1", 0, SQLITE_MAGIC.length) !== SQLITE_MAGIC) {
    throw new ForeignDatabaseError(path, "is not an SQLite database");
  }
  const applicationId = header.readUInt32BE(68);
  if (applicationId === PLANGATE_APPLICATION_ID) return;
  if (applicationId !== 0) {
    throw new ForeignDatabaseError(path, "is another application's SQLite database");
  }
  const probe = new BetterSqlite3(path, { ...driver(), readonly: true, fileMustExist: true });
  try {
    const tables = new Set(
      probe.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all(),
    );
    if (tables.size > 0 && !PLANGATE_TABLES.every((table) => tables.has(table))) {
      throw new ForeignDatabaseError(path, "is an SQLite database with other tables");
    }
  } finally {
    probe.close();
  }
}
