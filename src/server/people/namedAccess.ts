import type { Database } from "better-sqlite3";
import { hashNamedToken, NamedTokenStore } from "../store/namedTokens.ts";
import type { SqlDb } from "../store/sqlDb.ts";

export interface NamedAccessDeps {
  db: Database | SqlDb;
  /** Called with each person whose token stopped being live, right after it is noticed. */
  onRevoked(person: string): void;
  /** How often to look for another process's writes. Default 250 ms. */
  pollMs?: number;
}

/**
 * S3: the running server's view of the named tokens. `token issue` and `token revoke` are
 * another process writing the same database; a cheap poll of the tokens' change stamp (SQLite's
 * `data_version`, PostgreSQL's table stamp) notices a revocation within one interval, with no
 * file watching (which misses WAL writes on some file systems) and no extra channel.
 */
export class NamedAccess {
  private readonly store: NamedTokenStore;
  private live: Map<string, string>;
  private version: string;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(private readonly deps: NamedAccessDeps) {
    this.store = new NamedTokenStore(deps.db);
    this.live = this.store.live();
    this.version = this.dataVersion();
    // With no live token there is nothing to revoke; a new one is read when it is first used.
    this.timer = setInterval(() => {
      if (this.live.size > 0) this.refresh();
    }, deps.pollMs ?? 250);
    this.timer.unref();
  }

  /** The person a token belongs to, or undefined for an unknown or revoked one. */
  personOf(token: string): string | undefined {
    // A token issued or revoked a moment ago counts already, not one poll later.
    this.refresh();
    return this.live.get(hashNamedToken(token));
  }

  /** Rereads the tokens when another connection committed since the last look. */
  refresh(): void {
    let version: string;
    try {
      version = this.dataVersion();
    } catch {
      return; // the database is closing; the next start reads it afresh
    }
    if (version === this.version) return;
    this.version = version;
    const before = this.live;
    this.live = this.store.live();
    // By hash: a token revoked and reissued between two looks is still a revoked token.
    const gone = new Set<string>();
    for (const [hash, person] of before) if (!this.live.has(hash)) gone.add(person);
    for (const person of gone) this.deps.onRevoked(person);
  }

  close(): void {
    clearInterval(this.timer);
  }

  private dataVersion(): string {
    return this.store.changeStamp();
  }
}
