import { createHash, randomBytes } from "node:crypto";
import type { Database } from "better-sqlite3";
import { guardStorage } from "./errors.ts";
import { asSqlDb, type SqlDb } from "./sqlDb.ts";

/** S3: what `token list` shows; the token itself is never kept, only its hash. */
export interface NamedTokenRow {
  name: string;
  createdAt: number;
  revokedAt: number | null;
}

export class NamedTokenError extends Error {}

/** Letters, digits, spaces, dots, dashes and underscores; what the transcript shows as "by …". */
const PERSON_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,39}$/u;

/** A token is 32 random bytes, so one unsalted SHA-256 is enough to make the stored hash useless. */
export function hashNamedToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * S3: the people who may open the page, one named token each, kept as hashes. Its own table
 * beside the session log, so it can move behind the store interface (S1) as one piece.
 */
export class NamedTokenStore {
  private readonly db: SqlDb;

  /** On SQLite the table is made here; PostgreSQL's migrations make it. */
  constructor(db: Database | SqlDb) {
    this.db = asSqlDb(db);
    if (this.db.dialect === "sqlite")
      guardStorage("prepare the access token table", () =>
        this.db.exec(`CREATE TABLE IF NOT EXISTS access_tokens (
        name TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      )`),
      );
  }

  /** Returns the new token, the only time it exists outside the person's hands. */
  issue(name: string, now: number): string {
    const person = name.trim();
    if (!PERSON_NAME.test(person)) {
      throw new NamedTokenError(
        `"${name}" is not a usable name: 1 to 40 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit.`,
      );
    }
    const token = randomBytes(32).toString("hex");
    const issued = guardStorage("issue an access token", () =>
      this.db.transaction(() => {
        const existing = this.db.get<{ revoked_at: number | null }>(
          "SELECT revoked_at FROM access_tokens WHERE name = ?",
          [person],
        );
        if (existing && existing.revoked_at === null) return false;
        this.db.run(
          `INSERT INTO access_tokens (name, token_hash, created_at, revoked_at) VALUES (?, ?, ?, NULL)
             ON CONFLICT(name) DO UPDATE SET token_hash = excluded.token_hash,
               created_at = excluded.created_at, revoked_at = NULL`,
          [person, hashNamedToken(token), now],
        );
        return true;
      }),
    );
    if (!issued) {
      throw new NamedTokenError(
        `${person} already has a token. Revoke it first (token revoke ${person}) to issue a new one.`,
      );
    }
    return token;
  }

  /** False when nobody of that name holds a live token. */
  revoke(name: string, now: number): boolean {
    const result = guardStorage("revoke an access token", () =>
      this.db.run("UPDATE access_tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL", [
        now,
        name.trim(),
      ]),
    );
    return result.changes > 0;
  }

  list(): NamedTokenRow[] {
    return guardStorage("list access tokens", () =>
      this.db
        .all<{ name: string; created_at: number | string; revoked_at: number | string | null }>(
          "SELECT name, created_at, revoked_at FROM access_tokens ORDER BY name",
        )
        // PostgreSQL hands BIGINT back as text.
        .map((row) => ({
          name: row.name,
          createdAt: Number(row.created_at),
          revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
        })),
    );
  }

  /** Hash → name of every live token. */
  live(): Map<string, string> {
    const rows = guardStorage("read access tokens", () =>
      this.db.all<{ name: string; token_hash: string }>(
        "SELECT name, token_hash FROM access_tokens WHERE revoked_at IS NULL",
      ),
    );
    return new Map(rows.map((row) => [row.token_hash, row.name]));
  }

  /**
   * Changes whenever the tokens may have: SQLite's `data_version` moves on every commit of
   * another connection; PostgreSQL has no such counter, so the table's own stamp is read.
   */
  changeStamp(): string {
    if (this.db.dialect === "sqlite") {
      return String(this.db.get<{ data_version: number }>("PRAGMA data_version")?.data_version);
    }
    const row = this.db.get<{
      n: number | string;
      issued: number | string;
      revoked: number | string;
    }>(
      "SELECT count(*) AS n, coalesce(max(created_at), 0) AS issued, coalesce(max(revoked_at), 0) AS revoked FROM access_tokens",
    );
    return `${row?.n}:${row?.issued}:${row?.revoked}`;
  }
}
