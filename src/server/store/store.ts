import { type Clock, systemClock } from "../clock.ts";
import { AgentSessions } from "../mcp/agentSessions.ts";
import { SqliteEventStore } from "../mcp/sqliteEventStore.ts";
import { SubscriptionStore } from "../push/subscriptionStore.ts";
import { TodoStore } from "../todos/todoStore.ts";
import { openDatabase } from "./database.ts";
import { type DatabaseLock, lockDatabase } from "./databaseLock.ts";
import { lockPostgres } from "./postgres/pgLock.ts";
import { migratePostgres } from "./postgres/pgMigrations.ts";
import { openPgSqlDb } from "./postgres/pgSqlDb.ts";
import { SessionLog } from "./sessionLog.ts";
import { SettingsStore } from "./settingsStore.ts";
import { asSqlDb, type SqlDb, type SqlDialect } from "./sqlDb.ts";
import {
  StorageHealth,
  type StorageHealthOptions,
  watchedSqlDb,
  writeProbe,
} from "./storageHealth.ts";
import { startWalCheckpointer, type WalCheckpointer } from "./walCheckpointer.ts";

/**
 * S1: everything plangate persists, behind one interface with two backends: an SQLite file
 * (the embedded default) and a PostgreSQL database (`--db postgres://…`). Each part speaks
 * SqlDb, so both backends run the same statements and pass the same store suite.
 */
export interface Store {
  readonly backend: SqlDialect;
  /** The file, or the URL without its password: fit for a message. */
  readonly location: string;
  /** Every part's statements go through it, and so are seen by `health`. */
  readonly db: SqlDb;
  /** R3/W3: whether writes are taken right now. */
  readonly health: StorageHealth;
  /** Sessions and their entries: messages, interactions, drafts, resolutions, modes. */
  readonly log: SessionLog;
  readonly settings: SettingsStore;
  readonly todos: TodoStore;
  readonly subscriptions: SubscriptionStore;
  readonly mcpEvents: SqliteEventStore;
  readonly agents: AgentSessions;
  close(): void;
}

export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** The URL as a message may show it: the password replaced. */
export function redactUrl(location: string): string {
  try {
    const url = new URL(location);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return location;
  }
}

/**
 * A restart's first page comes first: booting the thread (a second Node environment, ≈80 ms of
 * CPU) would compete with it on a 2-core machine (issue 15).
 */
const CHECKPOINT_THREAD_AFTER_MS = 1000;

/**
 * Opens (creating and migrating as needed) the store at a file path or a postgres:// URL. A
 * server's SQLite file is checkpointed off its thread (`checkpointOffThread`, R12).
 */
export function openStore(
  location: string,
  clock: Clock,
  options: { checkpointOffThread?: boolean; health?: HealthOptions } = {},
): Store {
  if (!isPostgresUrl(location)) {
    const database = openDatabase(location);
    const store = storeOn(asSqlDb(database), location, clock, options.health);
    if (!options.checkpointOffThread || location === ":memory:") return store;
    let checkpointer: WalCheckpointer;
    try {
      checkpointer = startWalCheckpointer(database, location, {
        threadAfterMs: CHECKPOINT_THREAD_AFTER_MS,
      });
    } catch (error) {
      store.close();
      throw error;
    }
    return {
      ...store,
      close: () => {
        checkpointer.stop();
        store.close();
      },
    };
  }
  const shown = redactUrl(location);
  const db = openPgSqlDb(location);
  try {
    migratePostgres(db, shown);
  } catch (error) {
    db.close();
    throw error;
  }
  return storeOn(db, shown, clock, options.health);
}

/**
 * R11: one server per database file, taken before the file is opened, by a lock file beside
 * it. S2: a PostgreSQL database is shared by every server on it; the "lock" only names this one.
 */
export function lockStore(location: string, store?: Store): DatabaseLock {
  if (!isPostgresUrl(location)) return lockDatabase(location);
  if (!store) throw new Error("a PostgreSQL store is named once it is open");
  return lockPostgres(store.db);
}

/** How the store's health logs and probes; the wall clock unless a test says otherwise. */
export type HealthOptions = Partial<Omit<StorageHealthOptions, "probe">>;

/**
 * R3/W3: a probe of an SQLite file costs next to nothing, so recovery shows within a second;
 * one of PostgreSQL may wait on the network, and its reconnection probes at once anyway.
 */
const PROBE_PACE: Record<
  SqlDialect,
  Pick<StorageHealthOptions, "firstProbeMs" | "probeEveryMs">
> = {
  sqlite: { firstProbeMs: 100, probeEveryMs: 750 },
  postgres: { firstProbeMs: 5_000, probeEveryMs: 5_000 },
};

export function storeOn(
  raw: SqlDb,
  location: string,
  clock: Clock,
  healthOptions: HealthOptions = {},
): Store {
  const wallClock = healthOptions.clock ?? systemClock;
  const health: StorageHealth = new StorageHealth({
    ...PROBE_PACE[raw.dialect],
    ...healthOptions,
    clock: wallClock,
    probe: () => writeProbe(db, wallClock.now()),
  });
  const db = watchedSqlDb(raw, health);
  const mcpEvents = new SqliteEventStore(db, () => clock.now());
  return {
    backend: db.dialect,
    location,
    db,
    health,
    log: new SessionLog(db, clock),
    settings: new SettingsStore(db),
    todos: new TodoStore(db, clock),
    subscriptions: new SubscriptionStore(db),
    mcpEvents,
    agents: new AgentSessions(db),
    close: () => {
      // Stream events wait a tick to be written together; they reach the file before it closes.
      mcpEvents.flush();
      health.close();
      db.close();
    },
  };
}
