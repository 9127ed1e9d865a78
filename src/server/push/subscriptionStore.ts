import type { Database } from "better-sqlite3";

export interface PushSubscriptionRecord {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  deviceLabel: string;
}

/** U3: the devices that asked for notifications, one row per push endpoint. */
export class SubscriptionStore {
  // Prepared once: the list is read on every question that arrives.
  private readonly upsert;
  private readonly delete;
  private readonly all;

  constructor(db: Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS push_subscriptions (
      endpoint TEXT PRIMARY KEY,
      p256dh TEXT NOT NULL,
      auth TEXT NOT NULL,
      device_label TEXT NOT NULL,
      created_at INTEGER NOT NULL
    )`);
    this.upsert = db.prepare<[string, string, string, string, number]>(
      `INSERT INTO push_subscriptions (endpoint, p256dh, auth, device_label, created_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth,
         device_label = excluded.device_label`,
    );
    this.delete = db.prepare<[string]>("DELETE FROM push_subscriptions WHERE endpoint = ?");
    this.all = db.prepare<
      [],
      { endpoint: string; p256dh: string; auth: string; device_label: string }
    >("SELECT endpoint, p256dh, auth, device_label FROM push_subscriptions");
  }

  save(subscription: PushSubscriptionRecord, now: number): void {
    this.upsert.run(
      subscription.endpoint,
      subscription.keys.p256dh,
      subscription.keys.auth,
      subscription.deviceLabel,
      now,
    );
  }

  remove(endpoint: string): void {
    this.delete.run(endpoint);
  }

  list(): PushSubscriptionRecord[] {
    return this.all.all().map((row) => ({
      endpoint: row.endpoint,
      keys: { p256dh: row.p256dh, auth: row.auth },
      deviceLabel: row.device_label,
    }));
  }
}
