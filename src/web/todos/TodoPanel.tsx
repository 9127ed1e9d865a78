import { useId, useState } from "react";
import type { TodoItem } from "../../protocol/index.ts";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { useAppStore } from "../store/store.ts";
import { todoProgress } from "./todoProgress.ts";
import "./todos.css";

const EMPTY: TodoItem[] = [];

/** T6: the agent's todo list with each item's status and priority, and how much is done. */
export function TodoPanel({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation();
  const todos = useAppStore((s) => s.views[sessionId]?.todos ?? EMPTY);
  const [open, setOpen] = useState(true);
  const headingId = useId();
  const listId = useId();
  if (todos.length === 0) return null;
  const { completed, total, inProgress } = todoProgress(todos);
  const progressText = t("todos.progress", { completed, total });
  return (
    <aside className="todos" aria-labelledby={headingId} data-testid="todo-panel">
      <div className="todos-head">
        <h2 id={headingId} className="todos-heading">
          {t("todos.heading")}
        </h2>
        <span className="todos-progress" data-testid="todo-progress" aria-live="polite">
          {progressText}
        </span>
        <progress
          className="todos-bar"
          value={completed}
          max={total}
          aria-label={t("todos.progressLabel")}
          aria-valuetext={progressText}
        />
        {!open && inProgress ? (
          <span className="todos-current" title={inProgress.content}>
            {inProgress.content}
          </span>
        ) : null}
        <button
          type="button"
          className="btn btn--ghost todos-toggle"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen(!open)}
        >
          {open ? t("todos.hide") : t("todos.show")}
        </button>
      </div>
      <ol id={listId} className="todos-list" hidden={!open} data-testid="todo-list">
        {todos.map((todo, index) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: todos have no ids (T1); position is identity
            key={index}
            className={`todo todo--${todo.status}`}
            data-testid="todo-item"
            data-status={todo.status}
          >
            <span className="todo-mark" aria-hidden="true">
              {todo.status === "completed" ? "✓" : todo.status === "in_progress" ? "▸" : "○"}
            </span>
            <span className="todo-content">{todo.content}</span>
            <span className="todo-status">{t(`todos.status.${todo.status}`)}</span>
            <span className={`todo-priority todo-priority--${todo.priority}`}>
              {t(`todos.priority.${todo.priority}`)}
            </span>
          </li>
        ))}
      </ol>
    </aside>
  );
}
