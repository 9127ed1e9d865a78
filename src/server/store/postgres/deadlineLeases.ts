import type { SqlDb } from "../sqlDb.ts";

/**
 * S2: a deadline is fired by the one server that takes its lease: a conditional write that
 * inserts the row, or takes it over once the holder's lease ran out (it died before writing
 * the resolution). Every other server leaves the deadline alone.
 */
export function takeDeadlineLease(
  db: SqlDb,
  lease: { interactionId: string; holder: string; now: number; leaseMs: number },
): boolean {
  const row = db.get<{ holder: string }>(
    `INSERT INTO deadline_leases (interaction_id, holder, taken_at) VALUES (?, ?, ?)
     ON CONFLICT (interaction_id) DO UPDATE SET holder = excluded.holder, taken_at = excluded.taken_at
     WHERE deadline_leases.holder = excluded.holder OR deadline_leases.taken_at < ?
     RETURNING holder`,
    [lease.interactionId, lease.holder, lease.now, lease.now - lease.leaseMs],
  );
  return row !== undefined;
}
