import type {
  EventId,
  EventStore,
  StreamId,
} from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Database } from "better-sqlite3";
import { asSqlDb, type SqlDb } from "../store/sqlDb.ts";

/** A stream's events are only worth replaying while its agent may still come back for them. */
const KEEP_EVENTS_MS = 24 * 60 * 60 * 1000;

interface EventRow {
  id: number;
  stream_id: string;
  message: string;
}

/**
 * B3: the messages sent on each MCP stream, kept in the session database so an agent whose
 * stream dropped gets what it missed by reconnecting with `Last-Event-ID` (the event id is the
 * row id, so it orders the replay).
 */
export class SqliteEventStore implements EventStore {
  private readonly db: SqlDb;

  /** On SQLite the table is made here; PostgreSQL's migrations make it. */
  constructor(
    db: Database | SqlDb,
    private readonly now: () => number = Date.now,
  ) {
    this.db = asSqlDb(db);
    if (this.db.dialect === "sqlite") {
      this.db.exec(`CREATE TABLE IF NOT EXISTS mcp_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        stream_id TEXT NOT NULL,
        message TEXT NOT NULL,
        stored_at INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS mcp_events_stream ON mcp_events (stream_id, id);`);
    }
    this.prune();
  }

  prune(): void {
    this.db.run("DELETE FROM mcp_events WHERE stored_at < ?", [this.now() - KEEP_EVENTS_MS]);
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const row = this.db.get<{ id: number }>(
      "INSERT INTO mcp_events (stream_id, message, stored_at) VALUES (?, ?, ?) RETURNING id",
      [streamId, JSON.stringify(message), this.now()],
    );
    return String(row!.id);
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.rowOf(eventId)?.stream_id;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.rowOf(lastEventId);
    if (!last) return "";
    const rows = this.db.all<EventRow>(
      "SELECT * FROM mcp_events WHERE stream_id = ? AND id > ? ORDER BY id",
      [last.stream_id, last.id],
    );
    for (const row of rows) {
      const message = JSON.parse(row.message) as JSONRPCMessage;
      // The priming event of a stream carries no message.
      if (Object.keys(message).length > 0) await send(String(row.id), message);
    }
    return last.stream_id;
  }

  private rowOf(eventId: EventId): EventRow | undefined {
    return /^\d+$/.test(eventId)
      ? this.db.get<EventRow>("SELECT * FROM mcp_events WHERE id = ?", [Number(eventId)])
      : undefined;
  }
}
