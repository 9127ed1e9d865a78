import type { Database, Statement } from "better-sqlite3";
import type { TodoItem } from "../../protocol/index.ts";
import type { Clock } from "../clock.ts";
import { guardStorage, SessionNotFoundError } from "../store/errors.ts";

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
 * `BEGIN IMMEDIATE` transaction, so a reader never sees half of an old and half of a new list.
 */
export class TodoStore {
  private readonly statements: {
    select: Statement<[string], TodoRow>;
    deleteAll: Statement;
    insert: Statement;
    touchSession: Statement;
  };

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {
    this.statements = {
      select: db.prepare(
        "SELECT content, status, priority FROM todos WHERE session_id = ? ORDER BY position",
      ),
      deleteAll: db.prepare("DELETE FROM todos WHERE session_id = ?"),
      insert: db.prepare(
        "INSERT INTO todos (session_id, position, content, status, priority) VALUES (?, ?, ?, ?, ?)",
      ),
      touchSession: db.prepare("UPDATE sessions SET updated_at = ? WHERE id = ?"),
    };
  }

  read(sessionId: string): TodoItem[] {
    return guardStorage("read the todo list", () =>
      this.statements.select.all(sessionId).map(toItem),
    );
  }

  /** Throws `StorageError` or `SessionNotFoundError`; either way the old list stays. */
  replace(sessionId: string, todos: readonly TodoItem[]): TodoReplacement {
    return guardStorage("write the todo list", () =>
      this.db
        .transaction((): TodoReplacement => {
          const touched = this.statements.touchSession.run(this.clock.now(), sessionId);
          if (touched.changes === 0) throw new SessionNotFoundError(sessionId);
          const oldTodos = this.statements.select.all(sessionId).map(toItem);
          this.statements.deleteAll.run(sessionId);
          for (const [position, todo] of todos.entries()) {
            this.statements.insert.run(
              sessionId,
              position,
              todo.content,
              todo.status,
              todo.priority,
            );
          }
          return { oldTodos, todos: todos.map(toItem) };
        })
        .immediate(),
    );
  }
}

function toItem(row: TodoRow): TodoItem {
  return { content: row.content, status: row.status, priority: row.priority };
}
