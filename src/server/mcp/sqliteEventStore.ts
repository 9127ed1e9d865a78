import { randomUUID } from "node:crypto";
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
 * What waits to be written, and the last id handed out: the database's, not a store object's,
 * so a store made again on the same database (a restart in tests) sees every event.
 */
interface Pending {
  lastId: number;
  rows: Array<[number, string, string, number]>;
  flushing: ReturnType<typeof setImmediate> | undefined;
}
const pendingOf = new WeakMap<object, Pending>();

/** The priming event of a stream carries no message. */
type StoredMessage = JSONRPCMessage | Record<string, never>;

/**
 * B3: the messages sent on each MCP stream, kept in the session database so an agent whose
 * stream dropped gets what it missed by reconnecting with `Last-Event-ID` (the event id is the
 * row id, so it orders the replay).
 *
 * On SQLite the ids are handed out here and the rows written in one transaction per tick: a
 * burst of calls stores two events each (issue 15), one INSERT transaction apiece was ≈ 0.3 ms.
 * One server per database (R11) makes the counter safe; a stream lives no longer than its
 * process, so rows not yet written when the process dies are rows nobody can ask for. Every
 * read writes what waits first. PostgreSQL, shared by several servers (S), keeps its sequence.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: SqlDb;
  private readonly pending: Pending;

  /** On SQLite the table is made here; PostgreSQL's migrations make it. */
  constructor(
    db: Database | SqlDb,
    private readonly now: () => number = Date.now,
  ) {
    this.db = asSqlDb(db);
    let pending = pendingOf.get(this.db);
    if (!pending) {
      pending = { lastId: 0, rows: [], flushing: undefined };
      pendingOf.set(this.db, pending);
    }
    this.pending = pending;
    if (this.db.dialect === "sqlite") {
      this.db.exec(`CREATE TABLE IF NOT EXISTS mcp_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        stream_id TEXT NOT NULL,
        message TEXT NOT NULL,
        stored_at INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS mcp_events_stream ON mcp_events (stream_id, id);`);
      // AUTOINCREMENT never reuses an id, not even a pruned one; neither does this counter.
      this.flush();
      pending.lastId = Math.max(
        this.db.get<{ id: number | null }>("SELECT MAX(id) AS id FROM mcp_events")?.id ?? 0,
        this.db.get<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'mcp_events'")
          ?.seq ?? 0,
      );
    }
    this.prune();
  }

  prune(): void {
    this.flush();
    this.db.run("DELETE FROM mcp_events WHERE stored_at < ?", [this.now() - KEEP_EVENTS_MS]);
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    return this.append(streamId, message);
  }

  /** Stores one event and returns its id at once (the bridge's own streams write with it). */
  append(streamId: StreamId, message: StoredMessage): EventId {
    const text = JSON.stringify(message);
    if (this.db.dialect !== "sqlite") {
      const row = this.db.get<{ id: number }>(
        "INSERT INTO mcp_events (stream_id, message, stored_at) VALUES (?, ?, ?) RETURNING id",
        [streamId, text, this.now()],
      );
      return String(row!.id);
    }
    const pending = this.pending;
    pending.lastId += 1;
    pending.rows.push([pending.lastId, streamId, text, this.now()]);
    pending.flushing ??= setImmediate(() => {
      try {
        this.flush();
      } catch {
        // The database closed under a late event (a shutdown): nobody can resume it anyway.
      }
    });
    return String(pending.lastId);
  }

  /** How many events wait to be written. */
  get waiting(): number {
    return this.pending.rows.length;
  }

  /** Writes the queued events, all in one transaction. */
  flush(): void {
    const pending = this.pending;
    if (pending.flushing !== undefined) clearImmediate(pending.flushing);
    pending.flushing = undefined;
    if (pending.rows.length === 0) return;
    const rows = pending.rows;
    pending.rows = [];
    this.db.transaction(() => {
      for (const row of rows) {
        this.db.run(
          "INSERT INTO mcp_events (id, stream_id, message, stored_at) VALUES (?, ?, ?, ?)",
          row,
        );
      }
    });
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.streamIdOf(eventId);
  }

  streamIdOf(eventId: EventId): StreamId | undefined {
    return this.rowOf(eventId)?.stream_id;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    return (await this.replayIf(lastEventId, send, () => true)) ?? "";
  }

  /** The SDK's replay, for a stream `belongs` accepts; undefined (and nothing sent) otherwise. */
  async replayIf(
    lastEventId: EventId,
    send: (eventId: EventId, message: JSONRPCMessage) => Promise<void>,
    belongs: (streamId: StreamId) => boolean,
  ): Promise<StreamId | undefined> {
    const replay: Array<[EventId, JSONRPCMessage]> = [];
    const streamId = this.eventsAfter(
      lastEventId,
      (id, message) => replay.push([id, message]),
      belongs,
    );
    for (const [id, message] of replay) await send(id, message);
    return streamId;
  }

  /**
   * The stream's messages after `lastEventId`, in order; undefined for an unknown event or one
   * of a stream `belongs` refuses.
   */
  eventsAfter(
    lastEventId: EventId,
    each: (eventId: EventId, message: JSONRPCMessage) => void,
    belongs: (streamId: StreamId) => boolean = () => true,
  ): StreamId | undefined {
    const last = this.rowOf(lastEventId);
    if (!last || !belongs(last.stream_id)) return undefined;
    const rows = this.db.all<EventRow>(
      "SELECT * FROM mcp_events WHERE stream_id = ? AND id > ? ORDER BY id",
      [last.stream_id, last.id],
    );
    for (const row of rows) {
      const message = JSON.parse(row.message) as JSONRPCMessage;
      // The priming event of a stream carries no message.
      if (Object.keys(message).length > 0) each(String(row.id), message);
    }
    return last.stream_id;
  }

  private rowOf(eventId: EventId): EventRow | undefined {
    this.flush();
    return /^\d+$/.test(eventId)
      ? this.db.get<EventRow>("SELECT * FROM mcp_events WHERE id = ?", [Number(eventId)])
      : undefined;
  }
}

/**
 * B3: the event store as one MCP session sees it. Its streams are stored under its own prefix,
 * so a Last-Event-ID names a stream of this session or none: an agent holding the workspace
 * token still cannot replay another agent's answers by guessing event ids (they count up).
 */
export class SessionEvents implements EventStore {
  private readonly prefix = `${randomUUID()}/`;

  constructor(readonly store: SqliteEventStore) {}

  /** The id under which one of this session's streams is stored. */
  streamIdFor(localStreamId: StreamId): StreamId {
    return this.prefix + localStreamId;
  }

  /** The session's own id for a stored stream; undefined when another session owns it. */
  localStreamIdOf(eventId: EventId): StreamId | undefined {
    const stored = this.store.streamIdOf(eventId);
    return stored !== undefined && this.owns(stored) ? this.localOf(stored) : undefined;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    return this.store.append(this.streamIdFor(streamId), message);
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.localStreamIdOf(eventId);
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const stored = await this.store.replayIf(lastEventId, send, (streamId) => this.owns(streamId));
    // The SDK asks getStreamIdForEventId first and answers 400 for another's stream.
    if (stored === undefined) throw new Error("not a stream of this MCP session");
    return this.localOf(stored);
  }

  private owns(storedStreamId: StreamId): boolean {
    return storedStreamId.startsWith(this.prefix);
  }

  private localOf(storedStreamId: StreamId): StreamId {
    return storedStreamId.slice(this.prefix.length);
  }
}
