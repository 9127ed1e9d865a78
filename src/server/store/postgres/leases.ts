import type { SqlDb } from "../sqlDb.ts";

/** How long a lease row is kept after it was taken: a push's lease lasts as long (U3). */
export const LEASE_ROWS_KEPT_MS = 60 * 60_000;

/**
 * S2: an act that must happen once across servers is done by the one server that takes its
 * lease: a conditional write that inserts the row, or takes it over once the holder's lease ran
 * out (it died before acting). Every other server leaves the act alone. A key names the act:
 * a deadline's firing is its interaction's id; a push (U3) is `<interaction id>#<reason>`.
 */
export function takeLease(
  db: SqlDb,
  lease: { key: string; holder: string; now: number; leaseMs: number },
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
      lease.key,
      lease.key,
      lease.holder,
      lease.now,
      lease.now - lease.leaseMs,
    ],
  );
  return row !== undefined;
}
