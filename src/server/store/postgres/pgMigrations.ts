import { ForeignDatabaseError } from "../database.ts";
import type { SqlDb } from "../sqlDb.ts";

/**
 * S1: PostgreSQL's schema versions in order; `plangate_schema.version` records how many have
 * run. The first one is today's SQLite schema (every SQLite migration and the tables the MCP
 * and push stores add) in PostgreSQL's types. Later features append and never edit.
 */
export const pgMigrations: readonly string[] = [
  `
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    model TEXT NOT NULL,
    permission_mode TEXT NOT NULL,
    plan_enabled INTEGER NOT NULL,
    last_seq INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE entries (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    at BIGINT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    interaction_id TEXT,
    PRIMARY KEY (session_id, seq)
  );
  CREATE INDEX entries_by_kind ON entries (session_id, kind, seq);
  CREATE INDEX entries_by_interaction ON entries (session_id, interaction_id, kind, seq)
    WHERE interaction_id IS NOT NULL;
  -- R3/S2: the database itself refuses a second resolution, whichever server writes it.
  CREATE UNIQUE INDEX entries_one_resolution ON entries (session_id, interaction_id)
    WHERE kind = 'interaction.resolved';
  CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  CREATE TABLE todos (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    content TEXT NOT NULL CHECK (length(content) > 0),
    status TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'completed')),
    priority TEXT NOT NULL CHECK (priority IN ('high', 'medium', 'low')),
    PRIMARY KEY (session_id, position)
  );
  CREATE TABLE push_subscriptions (
    endpoint TEXT PRIMARY KEY,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    device_label TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE mcp_events (
    id BIGSERIAL PRIMARY KEY,
    stream_id TEXT NOT NULL,
    message TEXT NOT NULL,
    stored_at BIGINT NOT NULL
  );
  CREATE INDEX mcp_events_stream ON mcp_events (stream_id, id);
  CREATE TABLE mcp_agents (
    agent_key TEXT PRIMARY KEY,
    session_id TEXT NOT NULL
  );
  `,
  `
  -- S2: who fires a deadline. One row per interaction whose deadline some server fired; a
  -- row older than the lease may be taken over (its server died before writing).
  CREATE TABLE deadline_leases (
    interaction_id TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    taken_at BIGINT NOT NULL
  );
  `,
  `
  -- S3: named access tokens, kept as hashes; revoked rows stay so the list shows them.
  CREATE TABLE access_tokens (
    name TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
  );
  `,
  `
  -- X2/S2: the database itself refuses a second late answer to a question, whichever server
  -- writes it. A late answer is filed under its question from now on; older ones keep NULL
  -- (servers restored them into memory, and a NULL never conflicts).
  CREATE UNIQUE INDEX entries_one_late_answer ON entries (session_id, interaction_id)
    WHERE kind = 'user.message' AND interaction_id IS NOT NULL;
  `,
];

/** Any number shared by every plangate: servers starting together migrate one at a time. */
const MIGRATION_LOCK = 0x706c6774;

/**
 * Brings the database to the newest schema. R13: a database whose schema has tables but no
 * `plangate_schema` is someone else's and is refused before anything changes.
 */
export function migratePostgres(db: SqlDb, location: string, steps = pgMigrations): void {
  db.transaction(() => {
    db.run("SELECT pg_advisory_xact_lock(?)", [MIGRATION_LOCK]);
    const tables = db
      .all<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()",
      )
      .map((row) => row.name);
    if (tables.length > 0 && !tables.includes("plangate_schema")) {
      throw new ForeignDatabaseError(location, "has tables of another application");
    }
    if (!tables.includes("plangate_schema")) {
      db.exec(
        "CREATE TABLE plangate_schema (version INTEGER NOT NULL); INSERT INTO plangate_schema VALUES (0)",
      );
    }
    const current =
      db.get<{ version: number }>("SELECT version FROM plangate_schema")?.version ?? 0;
    for (let version = current; version < steps.length; version++) {
      db.exec(steps[version]!);
      db.run("UPDATE plangate_schema SET version = ?", [version + 1]);
    }
  });
}
