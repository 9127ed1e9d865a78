import type {
  EventId,
  EventStore,
  StreamId,
} from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Database } from "better-sqlite3";

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
  private readonly insert;
  private readonly byId;
  private readonly after;
  private readonly expired;

  constructor(
    db: Database,
    private readonly now: () => number = Date.now,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS mcp_events (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      stream_id TEXT NOT NULL,
      message TEXT NOT NULL,
      stored_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS mcp_events_stream ON mcp_events (stream_id, id);`);
    this.expired = db.prepare<[number]>("DELETE FROM mcp_events WHERE stored_at < ?");
    this.insert = db.prepare<[string, string, number]>(
      "INSERT INTO mcp_events (stream_id, message, stored_at) VALUES (?, ?, ?)",
    );
    this.byId = db.prepare<[number], EventRow>("SELECT * FROM mcp_events WHERE id = ?");
    this.after = db.prepare<[string, number], EventRow>(
      "SELECT * FROM mcp_events WHERE stream_id = ? AND id > ? ORDER BY id",
    );
    this.prune();
  }

  prune(): void {
    this.expired.run(this.now() - KEEP_EVENTS_MS);
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const { lastInsertRowid } = this.insert.run(streamId, JSON.stringify(message), this.now());
    return String(lastInsertRowid);
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
    for (const row of this.after.all(last.stream_id, last.id)) {
      const message = JSON.parse(row.message) as JSONRPCMessage;
      // The priming event of a stream carries no message.
      if (Object.keys(message).length > 0) await send(String(row.id), message);
    }
    return last.stream_id;
  }

  private rowOf(eventId: EventId): EventRow | undefined {
    return /^\d+$/.test(eventId) ? this.byId.get(Number(eventId)) : undefined;
  }
}
