import { useAppStore } from "../store/store.ts";

/** The session's model from its log once loaded, else from the session list. */
export function useSessionModel(sessionId: string): string | null {
  return useAppStore((s) => s.views[sessionId]?.model ?? s.sessions[sessionId]?.model ?? null);
}
