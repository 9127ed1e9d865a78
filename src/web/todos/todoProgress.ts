import type { TodoItem } from "../../protocol/index.ts";

/** T6: "completed / total", and the item being worked on now (the first in progress). */
export function todoProgress(todos: readonly TodoItem[]): {
  completed: number;
  total: number;
  inProgress: TodoItem | undefined;
} {
  return {
    completed: todos.filter((todo) => todo.status === "completed").length,
    total: todos.length,
    inProgress: todos.find((todo) => todo.status === "in_progress"),
  };
}
