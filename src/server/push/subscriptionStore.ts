import type { Database } from "better-sqlite3";
import { asSqlDb, type SqlDb } from "../store/sqlDb.ts";

export interface PushSubscriptionRecord {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  deviceLabel: string;
}

/** U3: the devices that asked for notifications, one row per push endpoint. */
export class SubscriptionStore {
  private readonly db: SqlDb;

  /** On SQLite the table is made here; PostgreSQL's migrations make it. */
  constructor(db: Database | SqlDb) {
    this.db = asSqlDb(db);
    if (this.db.dialect === "sqlite")
      this.db.exec(`CREATE TABLE IF NOT EXISTS push_subscriptions (
      endpoint TEXT PRIMARY KEY,
      p256dh TEXT NOT NULL,
      auth TEXT NOT NULL,
      device_label TEXT NOT NULL,
      created_at INTEGER NOT NULL
    )`);
  }

  save(subscription: PushSubscriptionRecord, now: number): void {
    this.db.run(
      `INSERT INTO push_subscriptions (endpoint, p256dh, auth, device_label, created_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth,
         device_label = excluded.device_label`,
      [
        subscription.endpoint,
        subscription.keys.p256dh,
        subscription.keys.auth,
        subscription.deviceLabel,
        now,
      ],
    );
  }

  /** Saves unless that would make more than `max` devices; an endpoint already kept always updates. */
  saveWithin(subscription: PushSubscriptionRecord, now: number, max: number): boolean {
    return this.db.transaction(() => {
      const known = this.db.get("SELECT 1 AS one FROM push_subscriptions WHERE endpoint = ?", [
        subscription.endpoint,
      ]);
      const count = Number(
        this.db.get<{ n: number | string }>("SELECT count(*) AS n FROM push_subscriptions")?.n ?? 0,
      );
      if (!known && count >= max) return false;
      this.save(subscription, now);
      return true;
    });
  }

  remove(endpoint: string): void {
    this.db.run("DELETE FROM push_subscriptions WHERE endpoint = ?", [endpoint]);
  }

  list(): PushSubscriptionRecord[] {
    const rows = this.db.all<{
      endpoint: string;
      p256dh: string;
      auth: string;
      device_label: string;
    }>(
      "SELECT endpoint, p256dh, auth, device_label FROM push_subscriptions ORDER BY created_at, endpoint",
    );
    return rows.map((row) => ({
      endpoint: row.endpoint,
      keys: { p256dh: row.p256dh, auth: row.auth },
      deviceLabel: row.device_label,
    }));
  }
}
