import type { Database } from "better-sqlite3";

export interface PushSubscriptionRecord {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  deviceLabel: string;
}

/** U3: the devices that asked for notifications, one row per push endpoint. */
export class SubscriptionStore {
  constructor(private readonly db: Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS push_subscriptions (
      endpoint TEXT PRIMARY KEY,
      p256dh TEXT NOT NULL,
      auth TEXT NOT NULL,
      device_label TEXT NOT NULL,
      created_at INTEGER NOT NULL
    )`);
  }

  save(subscription: PushSubscriptionRecord, now: number): void {
    this.db
      .prepare(
        `INSERT INTO push_subscriptions (endpoint, p256dh, auth, device_label, created_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth,
           device_label = excluded.device_label`,
      )
      .run(
        subscription.endpoint,
        subscription.keys.p256dh,
        subscription.keys.auth,
        subscription.deviceLabel,
        now,
      );
  }

  /** Saves unless that would make more than `max` devices; an endpoint already kept always updates. */
  saveWithin(subscription: PushSubscriptionRecord, now: number, max: number): boolean {
    return this.db.transaction(() => {
      const known = this.db
        .prepare("SELECT 1 FROM push_subscriptions WHERE endpoint = ?")
        .get(subscription.endpoint);
      const count = this.db
        .prepare("SELECT count(*) FROM push_subscriptions")
        .pluck()
        .get() as number;
      if (!known && count >= max) return false;
      this.save(subscription, now);
      return true;
    })();
  }

  remove(endpoint: string): void {
    this.db.prepare("DELETE FROM push_subscriptions WHERE endpoint = ?").run(endpoint);
  }

  list(): PushSubscriptionRecord[] {
    const rows = this.db
      .prepare("SELECT endpoint, p256dh, auth, device_label FROM push_subscriptions")
      .all() as { endpoint: string; p256dh: string; auth: string; device_label: string }[];
    return rows.map((row) => ({
      endpoint: row.endpoint,
      keys: { p256dh: row.p256dh, auth: row.auth },
      deviceLabel: row.device_label,
    }));
  }
}
