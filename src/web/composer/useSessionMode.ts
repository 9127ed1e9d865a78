import type { ModeName } from "../../protocol/index.ts";
import { useAppStore } from "../store/store.ts";
import { modeName } from "./modeName.ts";

/** The mode from the session log once loaded, else from the session list. */
export function useSessionMode(sessionId: string): ModeName | null {
  return useAppStore((s) => {
    const mode = s.views[sessionId]?.mode ?? s.sessions[sessionId]?.mode;
    return mode ? modeName(mode) : null;
  });
}
