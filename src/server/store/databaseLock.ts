import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { explainUnwritable } from "./unwritableDatabase.ts";

/** R11: another server holds the database; the message says which one. */
export class DatabaseInUseError extends Error {
  constructor(
    readonly holder: { pid: number; port: number | null } | undefined,
    dbPath: string,
    lockPath: string,
  ) {
    const where =
      holder === undefined
        ? "starting right now"
        : holder.port === null
          ? `pid ${holder.pid}, still starting`
          : `pid ${holder.pid}, port ${holder.port}: http://127.0.0.1:${holder.port}/`;
    super(
      `another plangate (${where}) is already serving the database ${dbPath}. ` +
        "Use that one, stop it first, or give this one another database with --db. " +
        `If no plangate is running, delete ${lockPath}.`,
    );
    this.name = "DatabaseInUseError";
  }
}

export interface DatabaseLock {
  /** Names this server's port in the lock, for the message a second server prints. */
  recordPort(port: number): void;
  release(): void;
}

interface Holder {
  pid: number;
  port: number | null;
  nonce: string;
}

/** A lock just created may be read before its first write lands; it counts as held this long. */
const FRESH_LOCK_MS = 5_000;

/**
 * R11: one server per database. A lock file beside the database names the server's pid and
 * port; a second server finds it and refuses to start while that process lives. A lock left
 * by a killed server (its pid gone) is taken over.
 */
export function lockDatabase(dbPath: string): DatabaseLock {
  const noLock: DatabaseLock = { recordPort() {}, release() {} };
  if (dbPath === ":memory:") return noLock;
  const lockPath = `${dbPath}.lock`;
  const mine: Holder = { pid: process.pid, port: null, nonce: randomBytes(8).toString("hex") };
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(dirname(lockPath), { recursive: true });
      writeFileSync(lockPath, JSON.stringify(mine), { flag: "wx" });
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "";
      if (code !== "EEXIST") throw explainUnwritable(dbPath, code) ?? error;
      if (attempt > 0) throw error;
    }
    const holder = readHolder(lockPath);
    if (holder === "fresh") throw new DatabaseInUseError(undefined, dbPath, lockPath);
    if (holder && isAlive(holder.pid)) throw new DatabaseInUseError(holder, dbPath, lockPath);
    rmSync(lockPath, { force: true });
  }
  const ours = () => {
    const holder = readHolder(lockPath);
    return typeof holder === "object" && holder?.nonce === mine.nonce;
  };
  return {
    recordPort(port) {
      if (ours()) writeFileSync(lockPath, JSON.stringify({ ...mine, port }));
    },
    release() {
      if (ours()) rmSync(lockPath, { force: true });
    },
  };
}

/** The port of the live server holding `dbPath`, if any (for links printed by other commands). */
export function runningServerPort(dbPath: string): number | undefined {
  const holder = readHolder(`${dbPath}.lock`);
  if (typeof holder !== "object" || holder.port === null || !isAlive(holder.pid)) return undefined;
  return holder.port;
}

function readHolder(lockPath: string): Holder | "fresh" | undefined {
  let text: string;
  try {
    text = readFileSync(lockPath, "utf8");
  } catch {
    return undefined;
  }
  try {
    const data = JSON.parse(text) as Partial<Holder>;
    if (typeof data.pid === "number" && typeof data.nonce === "string") {
      return {
        pid: data.pid,
        port: typeof data.port === "number" ? data.port : null,
        nonce: data.nonce,
      };
    }
  } catch {
    // written this very moment, or damaged: judged by its age below
  }
  const age = Date.now() - (statSync(lockPath, { throwIfNoEntry: false })?.mtimeMs ?? 0);
  return age < FRESH_LOCK_MS ? "fresh" : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  return !isZombie(pid);
}

/**
 * A server killed with -9 stays a zombie until its parent reaps it; it answers signal 0 but
 * serves nothing, so a restart right after the kill must not wait for it. Linux only; elsewhere
 * no process counts as one.
 */
function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return false;
  }
  // "pid (command) state ...": the command may hold spaces and parentheses, so read after the last.
  const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  return state === "Z" || state === "X";
}
