import type { Database } from "better-sqlite3";
import type { TodoItem } from "../../protocol/index.ts";
import type { Clock } from "../clock.ts";
import { guardStorage, SessionNotFoundError } from "../store/errors.ts";
import { asSqlDb, type SqlDb } from "../store/sqlDb.ts";

export interface TodoReplacement {
  oldTodos: TodoItem[];
  todos: TodoItem[];
}

interface TodoRow {
  content: string;
  status: TodoItem["status"];
  priority: TodoItem["priority"];
}

/**
 * T3: each session's todo list, one row per position. A write replaces the whole list in one
 * transaction that takes the write lock first, so a reader never sees half of an old and half of a new list.
 */
export class TodoStore {
  private readonly db: SqlDb;

  constructor(
    db: Database | SqlDb,
    private readonly clock: Clock,
  ) {
    this.db = asSqlDb(db);
  }

  read(sessionId: string): TodoItem[] {
    return guardStorage("read the todo list", () => this.select(sessionId));
  }

  /** Throws `StorageError` or `SessionNotFoundError`; either way the old list stays. */
  replace(sessionId: string, todos: readonly TodoItem[]): TodoReplacement {
    return guardStorage("write the todo list", () =>
      this.db.transaction((): TodoReplacement => {
        const touched = this.db.run("UPDATE sessions SET updated_at = ? WHERE id = ?", [
          this.clock.now(),
          sessionId,
        ]);
        if (touched.changes === 0) throw new SessionNotFoundError(sessionId);
        const oldTodos = this.select(sessionId);
        this.db.run("DELETE FROM todos WHERE session_id = ?", [sessionId]);
        for (const [position, todo] of todos.entries()) {
          this.db.run(
            "INSERT INTO todos (session_id, position, content, status, priority) VALUES (?, ?, ?, ?, ?)",
            [sessionId, position, todo.content, todo.status, todo.priority],
          );
        }
        return { oldTodos, todos: todos.map(toItem) };
      }),
    );
  }

  private select(sessionId: string): TodoItem[] {
    return this.db
      .all<TodoRow>(
        "SELECT content, status, priority FROM todos WHERE session_id = ? ORDER BY position",
        [sessionId],
      )
      .map(toItem);
  }
}

function toItem(row: TodoRow): TodoItem {
  return { content: row.content, status: row.status, priority: row.priority };
}
