import type { TodoItem } from "../../protocol/index.ts";
import type { SessionLog } from "../store/sessionLog.ts";
import type { TodoReplacement, TodoStore } from "./todoStore.ts";

/** One session's todo list, as a tool sees it. */
export interface SessionTodos {
  read(): TodoItem[];
  write(todos: readonly TodoItem[]): TodoReplacement;
}

/**
 * The table is what the tools read (T3); the log is what clients see. A write lands in the
 * table first and is then announced as a `todos.updated` entry, so every open page follows it.
 */
export class TodoService {
  constructor(
    private readonly store: TodoStore,
    private readonly log: Pick<SessionLog, "append">,
  ) {}

  read(sessionId: string): TodoItem[] {
    return this.store.read(sessionId);
  }

  write(sessionId: string, todos: readonly TodoItem[]): TodoReplacement {
    const replacement = this.store.replace(sessionId, todos);
    this.log.append(sessionId, { kind: "todos.updated", todos: replacement.todos });
    return replacement;
  }

  forSession(sessionId: string): SessionTodos {
    return {
      read: () => this.read(sessionId),
      write: (todos) => this.write(sessionId, todos),
    };
  }
}
