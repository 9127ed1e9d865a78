import type { TurnLocks } from "../../sessions/turnLocks.ts";
import type { SqlDb } from "../sqlDb.ts";

/** The first half of every turn lock's key ("pltt"); the second is the session id's hash. */
export const TURN_LOCK_SPACE = 0x706c7474;

/** How often a server holding locks checks its connection is still the one that took them. */
const CHECK_EVERY_MS = 250;

/**
 * S2: a session's turn lock is a session-level advisory lock on the store's connection, so a
 * server killed mid-turn frees its sessions the moment PostgreSQL sees the connection close.
 * PostgreSQL counts repeated takes by one connection, so each is taken here once. A store
 * that lost its connection and opened another has lost its locks with it: they are taken
 * again at once, and those another server took meanwhile are reported lost.
 */
export function pgTurnLocks(db: SqlDb, checkEveryMs = CHECK_EVERY_MS): TurnLocks {
  const held = new Set<string>();
  const lostListeners: ((sessionId: string) => void)[] = [];
  let connection = db.connections?.() ?? 0;

  const take = (sessionId: string): boolean =>
    db.get<{ ok: boolean }>("SELECT pg_try_advisory_lock(?::int, hashtext(?)) AS ok", [
      TURN_LOCK_SPACE,
      sessionId,
    ])?.ok === true;

  /** After any statement: on a new connection, the locks held are taken again (or lost). */
  const verify = (justTaken?: string) => {
    const now = db.connections?.() ?? 0;
    if (now === connection) return;
    connection = now;
    for (const sessionId of [...held]) {
      if (sessionId === justTaken) continue;
      let retaken = false;
      try {
        retaken = take(sessionId);
      } catch {
        // the new connection failed too; the next check tries again
        connection = -1;
        return;
      }
      if (retaken) continue;
      held.delete(sessionId);
      for (const listener of lostListeners) listener(sessionId);
    }
  };

  // A turn waiting for an answer sends nothing; this is what notices its connection dropped.
  const timer = setInterval(() => {
    if (held.size === 0) return;
    try {
      db.get("SELECT 1 AS alive");
    } catch {
      return;
    }
    verify();
  }, checkEveryMs);
  timer.unref();

  return {
    tryTake(sessionId) {
      verify();
      if (held.has(sessionId)) return true;
      const ok = take(sessionId);
      if (ok) held.add(sessionId);
      verify(sessionId);
      return ok;
    },
    release(sessionId) {
      if (!held.delete(sessionId)) return;
      try {
        db.get("SELECT pg_advisory_unlock(?::int, hashtext(?)) AS ok", [
          TURN_LOCK_SPACE,
          sessionId,
        ]);
      } catch {
        // the connection is gone, and the lock with it
      }
    },
    onLost(listener) {
      lostListeners.push(listener);
    },
    close() {
      clearInterval(timer);
    },
  };
}
