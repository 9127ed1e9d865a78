import type { Database } from "better-sqlite3";
import { asSqlDb, type SqlDb } from "../store/sqlDb.ts";

/**
 * B6: which plangate session an agent works in, keyed by its client name and workspace root,
 * so one-shot runs and restarts go on in the same session (and plan revision numbering).
 */
export class AgentSessions {
  private readonly db: SqlDb;

  /** On SQLite the table is made here; PostgreSQL's migrations make it. */
  constructor(db: Database | SqlDb) {
    this.db = asSqlDb(db);
    if (this.db.dialect === "sqlite") {
      this.db.exec(`CREATE TABLE IF NOT EXISTS mcp_agents (
        agent_key TEXT PRIMARY KEY,
        session_id TEXT NOT NULL
      )`);
    }
  }

  sessionOf(client: string, root: string): string | undefined {
    return this.db.get<{ session_id: string }>(
      "SELECT session_id FROM mcp_agents WHERE agent_key = ?",
      [this.keyOf(client, root)],
    )?.session_id;
  }

  remember(client: string, root: string, sessionId: string): void {
    this.db.run(
      "INSERT INTO mcp_agents (agent_key, session_id) VALUES (?, ?) ON CONFLICT (agent_key) DO UPDATE SET session_id = excluded.session_id",
      [this.keyOf(client, root), sessionId],
    );
  }

  /** PostgreSQL text cannot hold NUL, so it keys by JSON; SQLite keeps the keys it has. */
  private keyOf(client: string, root: string): string {
    return this.db.dialect === "postgres"
      ? JSON.stringify([client, root])
      : `${client}\u0000${root}`;
  }
}
