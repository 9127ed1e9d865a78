import type { Database, Statement } from "better-sqlite3";

export type SqlValue = string | number | null;
export type SqlDialect = "sqlite" | "postgres";

/**
 * S1: the few synchronous calls the stores make, spoken by both backends. SQL uses `?`
 * placeholders (PostgreSQL's driver numbers them); `dialect` picks the rare statement whose
 * wording differs.
 */
export interface SqlDb {
  readonly dialect: SqlDialect;
  all<Row>(sql: string, params?: readonly SqlValue[]): Row[];
  get<Row>(sql: string, params?: readonly SqlValue[]): Row | undefined;
  run(sql: string, params?: readonly SqlValue[]): { changes: number };
  /** Several statements, no parameters (schema changes). */
  exec(sql: string): void;
  /** Runs `work` in one transaction that takes the write lock first; nested calls join it. */
  transaction<T>(work: () => T): T;
  close(): void;
  /**
   * S2: how many connections the store has opened so far (PostgreSQL reconnects after a loss);
   * a change means what lived on the old connection, such as advisory locks, is gone.
   */
  connections?(): number;
}

const adapters = new WeakMap<Database, SqlDb>();

/**
 * The SqlDb of a better-sqlite3 connection; one per connection, so every store on it shares
 * one statement cache and one transaction.
 */
export function asSqlDb(db: Database | SqlDb): SqlDb {
  if ("dialect" in db) return db;
  let adapter = adapters.get(db);
  if (!adapter) {
    adapter = sqliteSqlDb(db);
    adapters.set(db, adapter);
  }
  return adapter;
}

function sqliteSqlDb(db: Database): SqlDb {
  const statements = new Map<string, Statement>();
  const prepared = (sql: string): Statement => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    dialect: "sqlite",
    all: <Row>(sql: string, params: readonly SqlValue[] = []) =>
      prepared(sql).all(...params) as Row[],
    get: <Row>(sql: string, params: readonly SqlValue[] = []) =>
      prepared(sql).get(...params) as Row | undefined,
    run: (sql, params = []) => ({ changes: prepared(sql).run(...params).changes }),
    exec: (sql) => {
      db.exec(sql);
    },
    transaction: (work) => db.transaction(work).immediate(),
    close: () => db.close(),
  };
}
