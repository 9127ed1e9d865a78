import { randomUUID } from "node:crypto";
import type { Database } from "better-sqlite3";
import {
  type ExecutionMode,
  interactionIdOf,
  PermissionMode,
  SessionEntry,
  type StoredEntry,
} from "../../protocol/index.ts";
import type { Clock } from "../clock.ts";
import { upgradeStoredEntry } from "../plan/executionMode.ts";
import {
  AlreadyLateAnsweredError,
  AlreadyResolvedError,
  CountdownTakenError,
  guardStorage,
  SessionNotFoundError,
} from "./errors.ts";
import {
  ENTRY_CHANNEL,
  SESSION_CHANNEL,
  type SessionChange,
  type SessionNotice,
  sessionPayload,
} from "./postgres/entryChannel.ts";
import { asSqlDb, type SqlDb } from "./sqlDb.ts";

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

/** S2: `elsewhere` marks an entry another server on the same PostgreSQL committed. */
export type EntryOrigin = "here" | "elsewhere";

/** S2: a rename or delete another server made (they write no entry). */
export type SessionChangeListener = (sessionId: string, change: SessionChange) => void;

export type EntryListener = (sessionId: string, stored: StoredEntry, origin: EntryOrigin) => void;

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
 * Seqs are 32-bit columns on PostgreSQL, which refuses a larger bound outright; "before
 * everything" (`Number.MAX_SAFE_INTEGER`, `Infinity`) is the largest seq a session can hold.
 */
const MAX_SEQ = 2_147_483_647;
function seqBound(beforeSeq: number): number {
  return Math.min(beforeSeq, MAX_SEQ);
}

/**
 * The append-only session log. Every change to a session is an entry: validated, written in
 * one transaction with the next per-session seq, and only then announced to listeners, so a
 * client never sees an entry the database does not hold (R6).
 */
export class SessionLog {
  private readonly listeners = new Set<EntryListener>();
  private readonly sessionListeners = new Set<SessionChangeListener>();
  /** S2: names this log in its session notices, so it can ignore its own. */
  private readonly instance = randomUUID();
  private readonly db: SqlDb;
  /** S2: while following other servers, the last seq announced here, per session. */
  private announced: Map<string, number> | undefined;
  /** Inside `batch`: entries written but not yet committed, announced after the commit. */
  private held: Array<[string, StoredEntry]> | undefined;

  constructor(
    db: Database | SqlDb,
    private readonly clock: Clock,
  ) {
    this.db = asSqlDb(db);
  }

  /** Listeners run after the commit; the returned function unsubscribes. */
  subscribe(listener: EntryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** S2: renames and deletes made on other servers; the returned function unsubscribes. */
  subscribeSessionChanges(listener: SessionChangeListener): () => void {
    this.sessionListeners.add(listener);
    return () => this.sessionListeners.delete(listener);
  }

  /** S2: another server renamed or deleted a session; tells the listeners. */
  sessionChangedElsewhere({ sessionId, change, from }: SessionNotice): void {
    if (from === this.instance) return;
    if (change === "deleted") this.announced?.delete(sessionId);
    for (const listener of this.sessionListeners) {
      try {
        listener(sessionId, change);
      } catch (error) {
        console.error("session change listener failed:", error);
      }
    }
  }

  /**
   * S2: from now on entries other servers commit are announced here too, each session's in seq
   * order with this server's own (a gap before an own entry is read and announced first).
   */
  follow(): void {
    this.announced = new Map(this.listSessions().map((session) => [session.id, session.lastSeq]));
  }

  /** S2: another server announced `seq` of the session; reads and announces what is new. */
  heard(sessionId: string, seq: number): void {
    if (seq > (this.announced?.get(sessionId) ?? 0)) this.catchUp(sessionId);
  }

  /** S2: after a lost notification connection: every session read up to its newest entry. */
  catchUpAll(): void {
    for (const session of this.listSessions()) this.catchUp(session.id);
  }

  /** S2: announces, in order, the entries after the last announced one, up to `upTo`. */
  catchUp(sessionId: string, upTo = Number.POSITIVE_INFINITY): void {
    const announced = this.announced;
    if (!announced || upTo <= (announced.get(sessionId) ?? 0)) return;
    for (const stored of this.entriesAfter(sessionId, announced.get(sessionId) ?? 0)) {
      if (stored.seq > upTo) break;
      // A listener may have written meanwhile, and its write announced these already.
      if (stored.seq <= (announced.get(sessionId) ?? 0)) continue;
      announced.set(sessionId, stored.seq);
      this.announce(sessionId, stored, "elsewhere");
    }
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
      this.db.transaction(() => {
        const at = this.clock.now();
        this.db.run(
          `INSERT INTO sessions (id, title, created_at, updated_at, model, permission_mode, plan_enabled, last_seq)
           VALUES (?, ?, ?, ?, ?, ?, ?, 0)`,
          [
            init.id,
            init.title,
            at,
            at,
            init.model,
            init.mode.permissionMode,
            init.mode.planEnabled ? 1 : 0,
          ],
        );
        return this.write(init.id, entry);
      }),
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
      this.db.transaction(() => this.write(sessionId, checked.data)),
    );
    if (this.held) this.held.push([sessionId, stored]);
    else this.notify(sessionId, stored);
    return stored;
  }

  /**
   * The appends `work` makes commit together (SQLite: one commit for many deadlines due at
   * once, issue 15); listeners hear them after the commit, in order. An append that fails
   * inside throws to its caller and leaves the others. Throws StorageError when the commit
   * fails: then none is written or announced. On PostgreSQL `work` runs as is (S2: a failed
   * statement there would abort the whole transaction).
   */
  batch<T>(work: () => T): T {
    if (this.db.dialect !== "sqlite" || this.held) return work();
    const held: Array<[string, StoredEntry]> = [];
    this.held = held;
    let result: T;
    try {
      result = guardStorage("record entries", () => this.db.transaction(work));
    } finally {
      this.held = undefined;
    }
    for (const [sessionId, stored] of held) this.notify(sessionId, stored);
    return result;
  }

  entriesAfter(sessionId: string, seq: number): StoredEntry[] {
    return guardStorage("read the session log", () =>
      this.db
        .all<EntryRow>(
          "SELECT seq, at, body FROM entries WHERE session_id = ? AND seq > ? ORDER BY seq",
          [sessionId, seq],
        )
        .map(toStored),
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
      // Read newest first in pages, so a long log is never read whole.
      for (let before = seqBound(beforeSeq); ; ) {
        const page = this.db.all<EntryRow & { kind: string }>(
          `SELECT seq, at, kind, body FROM entries WHERE session_id = ? AND seq < ?
           ORDER BY seq DESC LIMIT ${WINDOW_PAGE}`,
          [sessionId, before],
        );
        for (const row of page) {
          bytes += row.body.length;
          if (rows.length > 0 && bytes > limits.maxBytes) return done(rows);
          rows.push(row);
          if (!limits.uncounted?.has(row.kind)) counted += 1;
          if (counted >= limits.maxEntries) return done(rows);
        }
        if (page.length < WINDOW_PAGE) return done(rows);
        before = page[page.length - 1]!.seq;
      }
    });
  }

  /** The latest entry of that kind before `beforeSeq`. */
  latestOfKind(
    sessionId: string,
    kind: SessionEntry["kind"],
    beforeSeq: number,
  ): StoredEntry | undefined {
    const row = guardStorage("read the session log", () =>
      this.db.get<EntryRow>(
        `SELECT seq, at, body FROM entries ${this.indexedBy("entries_by_kind")}
         WHERE session_id = ? AND kind = ? AND seq < ? ORDER BY seq DESC LIMIT 1`,
        [sessionId, kind, seqBound(beforeSeq)],
      ),
    );
    return row && toStored(row);
  }

  /** The entries of one kind after `afterSeq`, in order, read by index without the others. */
  entriesOfKindAfter(
    sessionId: string,
    kind: SessionEntry["kind"],
    afterSeq: number,
  ): StoredEntry[] {
    return guardStorage("read the session log", () =>
      this.db
        .all<EntryRow>(
          `SELECT seq, at, body FROM entries ${this.indexedBy("entries_by_kind")}
           WHERE session_id = ? AND kind = ? AND seq > ? ORDER BY seq`,
          [sessionId, kind, afterSeq],
        )
        .map(toStored),
    );
  }

  /** `interaction.requested` entries before `beforeSeq` that no entry of the log resolves. */
  openRequests(sessionId: string, beforeSeq: number): StoredEntry[] {
    return guardStorage("read the session log", () =>
      this.db
        .all<EntryRow>(
          `SELECT r.seq, r.at, r.body FROM entries r ${this.indexedBy("entries_by_kind")}
           WHERE r.session_id = ? AND r.kind = 'interaction.requested' AND r.seq < ?
             AND NOT EXISTS (
               SELECT 1 FROM entries x
               WHERE x.session_id = r.session_id AND x.interaction_id = r.interaction_id
                 AND x.kind = 'interaction.resolved'
             )
           ORDER BY r.seq`,
          [sessionId, seqBound(beforeSeq)],
        )
        .map(toStored),
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
      this.db.get<EntryRow>(
        `SELECT seq, at, body FROM entries ${this.indexedBy("entries_by_interaction")}
         WHERE session_id = ? AND interaction_id = ? AND kind = ? AND interaction_id IS NOT NULL
           AND seq < ?
         ORDER BY seq DESC LIMIT 1`,
        [sessionId, interactionId, kind, seqBound(beforeSeq)],
      ),
    );
    return row && toStored(row);
  }

  /** W15: the list's title; the session keeps its place in the list. */
  rename(sessionId: string, title: string): SessionRecord {
    const changed = guardStorage("rename the session", () =>
      this.db.transaction(() => {
        const result = this.db.run("UPDATE sessions SET title = ? WHERE id = ?", [
          title,
          sessionId,
        ]);
        if (result.changes > 0) this.announceChange(sessionId, "renamed");
        return result;
      }),
    );
    if (changed.changes === 0) throw new SessionNotFoundError(sessionId);
    return this.requireSession(sessionId);
  }

  /** W15: the session with every entry and todo of it, in one statement. */
  deleteSession(sessionId: string): void {
    // Entries and todos go with the row (ON DELETE CASCADE).
    const deleted = guardStorage("delete the session", () =>
      this.db.transaction(() => {
        const result = this.db.run("DELETE FROM sessions WHERE id = ?", [sessionId]);
        if (result.changes > 0) this.announceChange(sessionId, "deleted");
        return result;
      }),
    );
    if (deleted.changes === 0) throw new SessionNotFoundError(sessionId);
    this.announced?.delete(sessionId);
  }

  getSession(sessionId: string): SessionRecord | undefined {
    const row = guardStorage("read the session", () =>
      this.db.get<SessionRow>("SELECT * FROM sessions WHERE id = ?", [sessionId]),
    );
    return row && toRecord(row);
  }

  requireSession(sessionId: string): SessionRecord {
    const session = this.getSession(sessionId);
    if (!session) throw new SessionNotFoundError(sessionId);
    return session;
  }

  /** Most recently updated first. */
  /**
   * The latest time the log holds (entries and session rows), or undefined when it is empty.
   * A deadline may lie later: it is a time to come, and one that came has its resolution's `at`.
   */
  latestTime(): number | undefined {
    return guardStorage("read the log's latest time", () => {
      const row = this.db.get<{ latest: number | string | null }>(
        `SELECT max(latest) AS latest FROM (
           SELECT max(at) AS latest FROM entries
           UNION ALL SELECT max(updated_at) FROM sessions
           UNION ALL SELECT max(created_at) FROM sessions
         ) times`,
      );
      return row?.latest === null || row?.latest === undefined ? undefined : Number(row.latest);
    });
  }

  listSessions(): SessionRecord[] {
    return guardStorage("list sessions", () =>
      this.db.all<SessionRow>("SELECT * FROM sessions ORDER BY updated_at DESC, id").map(toRecord),
    );
  }

  /**
   * Takes the next seq by updating the session row first: on PostgreSQL that row lock orders
   * every writer of the session, so the checks below see what the others committed.
   */
  private write(sessionId: string, entry: SessionEntry): StoredEntry {
    const at = this.clock.now();
    const row = this.db.get<{ last_seq: number; title: string }>(
      "UPDATE sessions SET updated_at = ?, last_seq = last_seq + 1 WHERE id = ? RETURNING last_seq, title",
      [at, sessionId],
    );
    if (!row) throw new SessionNotFoundError(sessionId);
    const seq = row.last_seq;
    const lateAnswerFor = entry.kind === "user.message" ? entry.lateAnswerFor : undefined;
    // A late answer is filed under its question, so the check below finds it by index.
    const interactionId = interactionIdOf(entry) ?? lateAnswerFor ?? null;
    // R3/S2: a resolution is written once, whichever server or timer comes second.
    if (
      entry.kind === "interaction.resolved" &&
      this.hasInteractionEntry(sessionId, entry.interactionId, entry.kind)
    ) {
      throw new AlreadyResolvedError(entry.interactionId);
    }
    // X2/S2: one late answer per question, whichever server the second one is sent to.
    if (
      lateAnswerFor !== undefined &&
      this.hasInteractionEntry(sessionId, lateAnswerFor, "user.message")
    ) {
      throw new AlreadyLateAnsweredError(lateAnswerFor);
    }
    // S2: servers that restored one question each start its countdown; the first one counts.
    if (
      entry.kind === "interaction.countdown" &&
      entry.countdown.phase !== "paused" &&
      this.hasInteractionEntry(sessionId, entry.interactionId, entry.kind)
    ) {
      throw new CountdownTakenError(entry.interactionId);
    }
    this.db.run(
      "INSERT INTO entries (session_id, seq, at, kind, body, interaction_id) VALUES (?, ?, ?, ?, ?, ?)",
      [sessionId, seq, at, entry.kind, JSON.stringify(entry), interactionId],
    );
    if (entry.kind === "session.modelChanged") {
      this.db.run("UPDATE sessions SET model = ? WHERE id = ?", [entry.model, sessionId]);
    }
    // An untitled session is named after what the user first asked, as chat products do.
    if (entry.kind === "user.message" && !entry.synthetic && row.title === "") {
      this.db.run("UPDATE sessions SET title = ? WHERE id = ? AND title = ''", [
        titleFromPrompt(entry.text),
        sessionId,
      ]);
    }
    // S2: delivered to every listening server when (and only if) this transaction commits.
    if (this.db.dialect === "postgres") {
      this.db.run("SELECT pg_notify(?, ?)", [ENTRY_CHANNEL, `${sessionId} ${seq}`]);
    }
    if (entry.kind === "session.modeChanged") {
      this.db.run("UPDATE sessions SET permission_mode = ?, plan_enabled = ? WHERE id = ?", [
        entry.mode.permissionMode,
        entry.mode.planEnabled ? 1 : 0,
        sessionId,
      ]);
    }
    return { seq, at, entry };
  }

  /** S2: delivered to every listening server when (and only if) the transaction commits. */
  private announceChange(sessionId: string, change: SessionChange): void {
    if (this.db.dialect !== "postgres") return;
    this.db.run("SELECT pg_notify(?, ?)", [
      SESSION_CHANNEL,
      sessionPayload({ sessionId, change, from: this.instance }),
    ]);
  }

  private hasInteractionEntry(
    sessionId: string,
    interactionId: string,
    kind: SessionEntry["kind"],
  ): boolean {
    return (
      this.db.get(
        `SELECT 1 AS found FROM entries ${this.indexedBy("entries_by_interaction")}
         WHERE session_id = ? AND interaction_id = ? AND kind = ? AND interaction_id IS NOT NULL`,
        [sessionId, interactionId, kind],
      ) !== undefined
    );
  }

  /** SQLite's planner needs the hint for these windows; PostgreSQL has no such clause. */
  private indexedBy(index: string): string {
    return this.db.dialect === "sqlite" ? `INDEXED BY ${index}` : "";
  }

  private notify(sessionId: string, stored: StoredEntry): void {
    const announced = this.announced;
    if (announced) {
      this.catchUp(sessionId, stored.seq - 1);
      if (stored.seq <= (announced.get(sessionId) ?? 0)) return;
      announced.set(sessionId, stored.seq);
    }
    this.announce(sessionId, stored, "here");
  }

  private announce(sessionId: string, stored: StoredEntry, origin: EntryOrigin): void {
    for (const listener of this.listeners) {
      try {
        listener(sessionId, stored, origin);
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
/** Rows read per step of a window; most windows need one page. */
const WINDOW_PAGE = 200;

function done(rows: EntryRow[]): StoredEntry[] {
  return rows.reverse().map(toStored);
}

export function titleFromPrompt(text: string): string {
  const firstLine = text.trim().split("\n")[0]?.trim() ?? "";
  const chars = Array.from(firstLine);
  return chars.length <= TITLE_MAX_CHARS
    ? firstLine
    : `${chars.slice(0, TITLE_MAX_CHARS - 1).join("")}…`;
}
