import type { Database } from "better-sqlite3";

/**
 * Schema versions in order; `PRAGMA user_version` records how many have run. Later features
 * append a function here and never edit an earlier one.
 */
export const migrations: ReadonlyArray<(db: Database) => void> = [
  (db) => {
    db.exec(`
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        model TEXT NOT NULL,
        permission_mode TEXT NOT NULL,
        plan_enabled INTEGER NOT NULL,
        last_seq INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE entries (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
      ) WITHOUT ROWID;
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `);
  },
  // T3: todo lists, replaced whole; the checks make a bad item fail its write, not the reads.
  (db) => {
    db.exec(`
      CREATE TABLE todos (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        content TEXT NOT NULL CHECK (length(content) > 0),
        status TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'completed')),
        priority TEXT NOT NULL CHECK (priority IN ('high', 'medium', 'low')),
        PRIMARY KEY (session_id, position)
      ) WITHOUT ROWID;
    `);
  },
  // A bounded snapshot finds the entries still in effect (latest of a kind, open interactions) by index.
  (db) => {
    db.exec(`
      ALTER TABLE entries ADD COLUMN interaction_id TEXT;
      UPDATE entries
        SET interaction_id = coalesce(json_extract(body, '$.interactionId'), json_extract(body, '$.request.interactionId'))
        WHERE kind IN ('interaction.requested', 'interaction.countdown', 'interaction.draft', 'interaction.resolved');
      CREATE INDEX entries_by_kind ON entries (session_id, kind, seq);
      CREATE INDEX entries_by_interaction ON entries (session_id, interaction_id, kind, seq)
        WHERE interaction_id IS NOT NULL;
    `);
  },
];

export function migrate(db: Database, steps = migrations): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  for (let version = current; version < steps.length; version++) {
    const step = steps[version]!;
    db.transaction(() => {
      step(db);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}
