import type { SqlDb } from "../sqlDb.ts";

const LEASE_ROWS_KEPT_MS = 60 * 60_000;

/**
 * S2: a deadline is fired by the one server that takes its lease: a conditional write that
 * inserts the row, or takes it over once the holder's lease ran out (it died before writing
 * the resolution). Every other server leaves the deadline alone.
 */
export function takeDeadlineLease(
  db: SqlDb,
  lease: { interactionId: string; holder: string; now: number; leaseMs: number },
): boolean {
  // A lease matters for seconds; rows an hour old go in the same statement, so none pile up.
  const row = db.get<{ holder: string }>(
    `WITH expired AS (DELETE FROM deadline_leases WHERE taken_at < ? AND interaction_id <> ?)
     INSERT INTO deadline_leases (interaction_id, holder, taken_at) VALUES (?, ?, ?)
     ON CONFLICT (interaction_id) DO UPDATE SET holder = excluded.holder, taken_at = excluded.taken_at
     WHERE deadline_leases.holder = excluded.holder OR deadline_leases.taken_at < ?
     RETURNING holder`,
    [
      lease.now - LEASE_ROWS_KEPT_MS,
      lease.interactionId,
      lease.interactionId,
      lease.holder,
      lease.now,
      lease.now - lease.leaseMs,
    ],
  );
  return row !== undefined;
}
