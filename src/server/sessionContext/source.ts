import type { StoredEntry, TodoItem } from "../../protocol/index.ts";
import type { SessionLog } from "../store/sessionLog.ts";

/** Everything another session offers as background: its log and its current todo list. */
export interface SessionMaterial {
  readonly id: string;
  readonly title: string;
  readonly updatedAt: number;
  readonly entries: readonly StoredEntry[];
  readonly todos: readonly TodoItem[];
}

/** M4: read access to persisted sessions, for ReadSessionContext. */
export interface SessionMaterialSource {
  read(sessionId: string): SessionMaterial | undefined;
}

export function createSessionMaterialSource(
  log: Pick<SessionLog, "getSession" | "entriesAfter">,
  todos: { read(sessionId: string): TodoItem[] },
): SessionMaterialSource {
  return {
    read(sessionId) {
      const session = log.getSession(sessionId);
      if (session === undefined) return undefined;
      return {
        id: session.id,
        title: session.title,
        updatedAt: session.updatedAt,
        entries: log.entriesAfter(sessionId, 0),
        todos: todos.read(sessionId),
      };
    },
  };
}
