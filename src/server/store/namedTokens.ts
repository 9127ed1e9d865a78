import { createHash, randomBytes } from "node:crypto";
import type { Database } from "better-sqlite3";
import { guardStorage } from "./errors.ts";

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
  constructor(private readonly db: Database) {
    guardStorage("prepare the access token table", () =>
      db.exec(`CREATE TABLE IF NOT EXISTS access_tokens (
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
        const existing = this.db
          .prepare<[string], { revoked_at: number | null }>(
            "SELECT revoked_at FROM access_tokens WHERE name = ?",
          )
          .get(person);
        if (existing && existing.revoked_at === null) return false;
        this.db
          .prepare(
            `INSERT INTO access_tokens (name, token_hash, created_at, revoked_at) VALUES (?, ?, ?, NULL)
             ON CONFLICT(name) DO UPDATE SET token_hash = excluded.token_hash,
               created_at = excluded.created_at, revoked_at = NULL`,
          )
          .run(person, hashNamedToken(token), now);
        return true;
      })(),
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
      this.db
        .prepare("UPDATE access_tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL")
        .run(now, name.trim()),
    );
    return result.changes > 0;
  }

  list(): NamedTokenRow[] {
    return guardStorage("list access tokens", () =>
      this.db
        .prepare<[], { name: string; created_at: number; revoked_at: number | null }>(
          "SELECT name, created_at, revoked_at FROM access_tokens ORDER BY name",
        )
        .all()
        .map((row) => ({ name: row.name, createdAt: row.created_at, revokedAt: row.revoked_at })),
    );
  }

  /** Hash → name of every live token. */
  live(): Map<string, string> {
    const rows = guardStorage("read access tokens", () =>
      this.db
        .prepare<[], { name: string; token_hash: string }>(
          "SELECT name, token_hash FROM access_tokens WHERE revoked_at IS NULL",
        )
        .all(),
    );
    return new Map(rows.map((row) => [row.token_hash, row.name]));
  }
}
