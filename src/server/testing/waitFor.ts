import type { SessionEntry, StoredEntry } from "../../protocol/index.ts";
import type { SessionLog } from "../store/sessionLog.ts";

/** Resolves with the first entry of the session (already stored or yet to come) that matches. */
export function waitForEntry<K extends SessionEntry["kind"]>(
  log: SessionLog,
  sessionId: string,
  kind: K,
  matches: (entry: Extract<SessionEntry, { kind: K }>) => boolean = () => true,
  timeoutMs = 5_000,
): Promise<StoredEntry & { entry: Extract<SessionEntry, { kind: K }> }> {
  type Found = StoredEntry & { entry: Extract<SessionEntry, { kind: K }> };
  const fits = (stored: StoredEntry): stored is Found =>
    stored.entry.kind === kind && matches(stored.entry as Extract<SessionEntry, { kind: K }>);
  const already = log.entriesAfter(sessionId, 0).find(fits);
  if (already) return Promise.resolve(already);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no ${kind} entry in ${sessionId} within ${timeoutMs} ms`));
    }, timeoutMs);
    const stop = log.subscribe((id, stored) => {
      if (id !== sessionId || !fits(stored)) return;
      clearTimeout(timer);
      stop();
      resolve(stored);
    });
  });
}
