import type { TodoItem } from "../../protocol/index.ts";
import type { TodoReplacement } from "./todoStore.ts";

export type TodoCounts = Record<TodoItem["status"], number> & { total: number };

export function countByStatus(todos: readonly TodoItem[]): TodoCounts {
  const counts: TodoCounts = { pending: 0, in_progress: 0, completed: 0, total: todos.length };
  for (const todo of todos) counts[todo.status] += 1;
  return counts;
}

/** `1. [status] content`, one line per item: the form reminders and TodoRead share (T5). */
export function numberedTodoList(todos: readonly TodoItem[]): string {
  return todos.map((todo, index) => `${index + 1}. [${todo.status}] ${todo.content}`).join("\n");
}

/** T2: what TodoWrite tells the model: a one-line summary, then the old and new lists. */
export function todoWriteResultText(replacement: TodoReplacement): string {
  const counts = countByStatus(replacement.todos);
  const summary =
    counts.total === 0
      ? "The todo list is now empty."
      : `The todo list now has ${counts.total} item${counts.total === 1 ? "" : "s"}: ` +
        `${counts.completed} completed, ${counts.in_progress} in progress, ${counts.pending} pending.`;
  const data = { oldTodos: replacement.oldTodos, todos: replacement.todos, summary: counts };
  return `${summary}\n${JSON.stringify(data, null, 2)}`;
}

/** T2: what TodoRead tells the model. */
export function todoReadResultText(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return "The todo list is empty.";
  const counts = countByStatus(todos);
  const lines = todos.map(
    (todo, index) => `${index + 1}. [${todo.status}] ${todo.content} (priority ${todo.priority})`,
  );
  return [
    `${counts.total} item${counts.total === 1 ? "" : "s"}: ${counts.completed} completed, ` +
      `${counts.in_progress} in progress, ${counts.pending} pending.`,
    ...lines,
  ].join("\n");
}
