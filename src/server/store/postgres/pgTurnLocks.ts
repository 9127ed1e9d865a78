import type { TurnLocks } from "../../sessions/turnLocks.ts";
import type { SqlDb } from "../sqlDb.ts";

/** The first half of every turn lock's key ("pltt"); the second is the session id's hash. */
const TURN_LOCK_SPACE = 0x706c7474;

/**
 * S2: a session's turn lock is a session-level advisory lock on the store's connection, so a
 * server killed mid-turn frees its sessions the moment PostgreSQL sees the connection close.
 * PostgreSQL counts repeated takes by one connection, so each is taken here once.
 */
export function pgTurnLocks(db: SqlDb): TurnLocks {
  const held = new Set<string>();
  return {
    tryTake(sessionId) {
      if (held.has(sessionId)) return true;
      const row = db.get<{ ok: boolean }>(
        "SELECT pg_try_advisory_lock(?::int, hashtext(?)) AS ok",
        [TURN_LOCK_SPACE, sessionId],
      );
      if (row?.ok) held.add(sessionId);
      return row?.ok === true;
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
  };
}
