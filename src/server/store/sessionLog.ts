import type { Database, Statement } from "better-sqlite3";
import {
  type ExecutionMode,
  PermissionMode,
  SessionEntry,
  type StoredEntry,
} from "../../protocol/index.ts";
import type { Clock } from "../clock.ts";
import { upgradeStoredEntry } from "../plan/executionMode.ts";
import { guardStorage, SessionNotFoundError } from "./errors.ts";

/** A session row: what the log knows about a session, without the live interaction count. */
export interface SessionRecord {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  lastSeq: number;
  model: string;
  mode: ExecutionMode;
}

export type EntryListener = (sessionId: string, stored: StoredEntry) => void;

interface SessionRow {
  id: string;
  title: string;
  created_at: number;
  updated_at: number;
  model: string;
  permission_mode: string;
  plan_enabled: number;
  last_seq: number;
}

interface EntryRow {
  seq: number;
  at: number;
  body: string;
}

/**
 * The append-only session log. Every change to a session is an entry: validated, written in
 * one transaction with the next per-session seq, and only then announced to listeners, so a
 * client never sees an entry the database does not hold (R6).
 */
export class SessionLog {
  private readonly listeners = new Set<EntryListener>();
  private readonly statements: {
    insertSession: Statement;
    selectSession: Statement<[string], SessionRow>;
    selectSessions: Statement<[], SessionRow>;
    insertEntry: Statement;
    touchSession: Statement;
    setModel: Statement;
    setMode: Statement;
    setTitle: Statement;
    rename: Statement;
    deleteSession: Statement;
    entriesAfter: Statement<[string, number], EntryRow>;
    entriesBefore: Statement<[string, number], EntryRow & { kind: string }>;
    latestOfKind: Statement<[string, string, number], EntryRow>;
    openRequests: Statement<[string, number], EntryRow>;
    latestOfInteraction: Statement<[string, string, string, number], EntryRow>;
  };

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {
    this.statements = {
      insertSession: db.prepare(
        `INSERT INTO sessions (id, title, created_at, updated_at, model, permission_mode, plan_enabled, last_seq)
         VALUES (@id, @title, @at, @at, @model, @permissionMode, @planEnabled, 0)`,
      ),
      selectSession: db.prepare("SELECT * FROM sessions WHERE id = ?"),
      selectSessions: db.prepare("SELECT * FROM sessions ORDER BY updated_at DESC, id"),
      insertEntry: db.prepare(
        "INSERT INTO entries (session_id, seq, at, kind, body, interaction_id) VALUES (?, ?, ?, ?, ?, ?)",
      ),
      touchSession: db.prepare("UPDATE sessions SET updated_at = ?, last_seq = ? WHERE id = ?"),
      setModel: db.prepare("UPDATE sessions SET model = ? WHERE id = ?"),
      setTitle: db.prepare("UPDATE sessions SET title = ? WHERE id = ? AND title = ''"),
      rename: db.prepare("UPDATE sessions SET title = ? WHERE id = ?"),
      // Entries and todos go with the row (ON DELETE CASCADE).
      deleteSession: db.prepare("DELETE FROM sessions WHERE id = ?"),
      setMode: db.prepare("UPDATE sessions SET permission_mode = ?, plan_enabled = ? WHERE id = ?"),
      entriesAfter: db.prepare(
        "SELECT seq, at, body FROM entries WHERE session_id = ? AND seq > ? ORDER BY seq",
      ),
      entriesBefore: db.prepare(
        "SELECT seq, at, kind, body FROM entries WHERE session_id = ? AND seq < ? ORDER BY seq DESC",
      ),
      latestOfKind: db.prepare(
        `SELECT seq, at, body FROM entries INDEXED BY entries_by_kind
         WHERE session_id = ? AND kind = ? AND seq < ? ORDER BY seq DESC LIMIT 1`,
      ),
      openRequests: db.prepare(
        `SELECT r.seq, r.at, r.body FROM entries r INDEXED BY entries_by_kind
         WHERE r.session_id = ? AND r.kind = 'interaction.requested' AND r.seq < ?
           AND NOT EXISTS (
             SELECT 1 FROM entries x
             WHERE x.session_id = r.session_id AND x.interaction_id = r.interaction_id
               AND x.kind = 'interaction.resolved'
           )
         ORDER BY r.seq`,
      ),
      latestOfInteraction: db.prepare(
        `SELECT seq, at, body FROM entries INDEXED BY entries_by_interaction
         WHERE session_id = ? AND interaction_id = ? AND kind = ? AND interaction_id IS NOT NULL
           AND seq < ?
         ORDER BY seq DESC LIMIT 1`,
      ),
    };
  }

  /** Listeners run after the commit; the returned function unsubscribes. */
  subscribe(listener: EntryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Creates the session row and its `session.created` entry in one transaction. */
  createSession(init: { id: string; title: string; model: string; mode: ExecutionMode }): {
    session: SessionRecord;
    stored: StoredEntry;
  } {
    const entry: SessionEntry = {
      kind: "session.created",
      title: init.title,
      model: init.model,
      mode: init.mode,
    };
    const stored = guardStorage("create the session", () =>
      this.db
        .transaction(() => {
          this.statements.insertSession.run({
            id: init.id,
            title: init.title,
            at: this.clock.now(),
            model: init.model,
            permissionMode: init.mode.permissionMode,
            planEnabled: init.mode.planEnabled ? 1 : 0,
          });
          return this.write(init.id, entry);
        })
        .immediate(),
    );
    this.notify(init.id, stored);
    return { session: this.requireSession(init.id), stored };
  }

  /**
   * Persists one entry and then broadcasts it. Throws `StorageError` (nothing written, nobody
   * told) or `SessionNotFoundError`; an invalid entry is a programming error and throws too.
   */
  append(sessionId: string, entry: SessionEntry): StoredEntry {
    const checked = SessionEntry.safeParse(entry);
    if (!checked.success) {
      throw new TypeError(
        `Refusing to log an invalid ${entry.kind} entry: ${checked.error.message}`,
      );
    }
    const stored = guardStorage(`record ${entry.kind}`, () =>
      this.db.transaction(() => this.write(sessionId, checked.data)).immediate(),
    );
    this.notify(sessionId, stored);
    return stored;
  }

  entriesAfter(sessionId: string, seq: number): StoredEntry[] {
    return guardStorage("read the session log", () =>
      this.statements.entriesAfter.all(sessionId, seq).map(toStored),
    );
  }

  /**
   * The entries just before `beforeSeq`, in order and without gaps: at most `maxEntries` of
   * them, not counting kinds in `uncounted`, and no more once their bodies pass `maxBytes`
   * (the newest one always comes).
   */
  entriesBefore(
    sessionId: string,
    beforeSeq: number,
    limits: { maxEntries: number; maxBytes: number; uncounted?: ReadonlySet<string> },
  ): StoredEntry[] {
    return guardStorage("read the session log", () => {
      const rows: EntryRow[] = [];
      let bytes = 0;
      let counted = 0;
      for (const row of this.statements.entriesBefore.iterate(sessionId, beforeSeq)) {
        bytes += row.body.length;
        if (rows.length > 0 && bytes > limits.maxBytes) break;
        rows.push(row);
        if (!limits.uncounted?.has(row.kind)) counted += 1;
        if (counted >= limits.maxEntries) break;
      }
      return rows.reverse().map(toStored);
    });
  }

  /** The latest entry of that kind before `beforeSeq`. */
  latestOfKind(
    sessionId: string,
    kind: SessionEntry["kind"],
    beforeSeq: number,
  ): StoredEntry | undefined {
    const row = guardStorage("read the session log", () =>
      this.statements.latestOfKind.get(sessionId, kind, beforeSeq),
    );
    return row && toStored(row);
  }

  /** `interaction.requested` entries before `beforeSeq` that no entry of the log resolves. */
  openRequests(sessionId: string, beforeSeq: number): StoredEntry[] {
    return guardStorage("read the session log", () =>
      this.statements.openRequests.all(sessionId, beforeSeq).map(toStored),
    );
  }

  /** The latest entry of that kind about one interaction, before `beforeSeq`. */
  latestOfInteraction(
    sessionId: string,
    interactionId: string,
    kind: "interaction.requested" | "interaction.countdown" | "interaction.draft",
    beforeSeq: number,
  ): StoredEntry | undefined {
    const row = guardStorage("read the session log", () =>
      this.statements.latestOfInteraction.get(sessionId, interactionId, kind, beforeSeq),
    );
    return row && toStored(row);
  }

  /** W15: the list's title; the session keeps its place in the list. */
  rename(sessionId: string, title: string): SessionRecord {
    const changed = guardStorage("rename the session", () =>
      this.statements.rename.run(title, sessionId),
    );
    if (changed.changes === 0) throw new SessionNotFoundError(sessionId);
    return this.requireSession(sessionId);
  }

  /** W15: the session with every entry and todo of it, in one statement. */
  deleteSession(sessionId: string): void {
    const deleted = guardStorage("delete the session", () =>
      this.statements.deleteSession.run(sessionId),
    );
    if (deleted.changes === 0) throw new SessionNotFoundError(sessionId);
  }

  getSession(sessionId: string): SessionRecord | undefined {
    const row = guardStorage("read the session", () =>
      this.statements.selectSession.get(sessionId),
    );
    return row && toRecord(row);
  }

  requireSession(sessionId: string): SessionRecord {
    const session = this.getSession(sessionId);
    if (!session) throw new SessionNotFoundError(sessionId);
    return session;
  }

  /** Most recently updated first. */
  listSessions(): SessionRecord[] {
    return guardStorage("list sessions", () => this.statements.selectSessions.all().map(toRecord));
  }

  private write(sessionId: string, entry: SessionEntry): StoredEntry {
    const row = this.statements.selectSession.get(sessionId);
    if (!row) throw new SessionNotFoundError(sessionId);
    const at = this.clock.now();
    const seq = row.last_seq + 1;
    this.statements.insertEntry.run(
      sessionId,
      seq,
      at,
      entry.kind,
      JSON.stringify(entry),
      interactionIdOf(entry),
    );
    this.statements.touchSession.run(at, seq, sessionId);
    if (entry.kind === "session.modelChanged") this.statements.setModel.run(entry.model, sessionId);
    // An untitled session is named after what the user first asked, as chat products do.
    if (entry.kind === "user.message" && !entry.synthetic && row.title === "") {
      this.statements.setTitle.run(titleFromPrompt(entry.text), sessionId);
    }
    if (entry.kind === "session.modeChanged") {
      this.statements.setMode.run(
        entry.mode.permissionMode,
        entry.mode.planEnabled ? 1 : 0,
        sessionId,
      );
    }
    return { seq, at, entry };
  }

  private notify(sessionId: string, stored: StoredEntry): void {
    for (const listener of this.listeners) {
      try {
        listener(sessionId, stored);
      } catch (error) {
        // A failing listener (e.g. a closed socket) must not undo or block a committed entry.
        console.error("session log listener failed:", error);
      }
    }
  }
}

function toStored(row: EntryRow): StoredEntry {
  return {
    seq: row.seq,
    at: row.at,
    // P1: older logs stored plan as a mode of its own; entries leave here in today's shape.
    entry: upgradeStoredEntry(JSON.parse(row.body) as SessionEntry),
  };
}

function interactionIdOf(entry: SessionEntry): string | null {
  switch (entry.kind) {
    case "interaction.requested":
      return entry.request.interactionId;
    case "interaction.countdown":
    case "interaction.draft":
    case "interaction.resolved":
      return entry.interactionId;
    default:
      return null;
  }
}

function toRecord(row: SessionRow): SessionRecord {
  const permissionMode = PermissionMode.safeParse(row.permission_mode);
  // P1: a stored legacy `plan` mode reads as plan on top of build.
  const legacyPlan = row.permission_mode === "plan";
  return {
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastSeq: row.last_seq,
    model: row.model,
    mode: {
      permissionMode: permissionMode.success ? permissionMode.data : "build",
      planEnabled: legacyPlan || row.plan_enabled === 1,
    },
  };
}

const TITLE_MAX_CHARS = 60;

export function titleFromPrompt(text: string): string {
  const firstLine = text.trim().split("\n")[0]?.trim() ?? "";
  const chars = Array.from(firstLine);
  return chars.length <= TITLE_MAX_CHARS
    ? firstLine
    : `${chars.slice(0, TITLE_MAX_CHARS - 1).join("")}…`;
}
