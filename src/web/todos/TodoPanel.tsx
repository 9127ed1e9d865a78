import { useTranslation } from "react-i18next";
import type { TodoItem } from "../../protocol/index.ts";
import { useAppStore } from "../store/store.ts";
import "./todos.css";

const EMPTY: TodoItem[] = [];

/** T6: the agent's todo list with its progress, folded away until wanted. */
export function TodoPanel({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation();
  const todos = useAppStore((s) => s.views[sessionId]?.todos ?? EMPTY);
  if (todos.length === 0) return null;
  const completed = todos.filter((todo) => todo.status === "completed").length;
  return (
    <aside className="todos" aria-labelledby="todos-heading" data-testid="todo-panel">
      <details>
        <summary>
          <span id="todos-heading" className="todos-heading">
            {t("todos.heading")}
          </span>
          <span className="todos-progress">
            {t("todos.progress", { completed, total: todos.length })}
          </span>
          <progress className="todos-bar" value={completed} max={todos.length} aria-hidden="true" />
        </summary>
        <ol className="todos-list">
          {todos.map((todo, index) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: todos have no ids (T1); position is identity
              key={index}
              className={`todo todo--${todo.status}`}
            >
              <span className="todo-status">{t(`todos.status.${todo.status}`)}</span>
              <span className="todo-content">{todo.content}</span>
            </li>
          ))}
        </ol>
      </details>
    </aside>
  );
}
