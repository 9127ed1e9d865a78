import type { ExecutionMode } from "../../protocol/index.ts";
import type { SessionLog } from "../store/sessionLog.ts";
import { modeFromEntries, readExecutionMode, sameMode } from "./executionMode.ts";

/**
 * The sessions' execution modes in memory (P1, P4), derived from the log alone.
 *
 * A change is appended as a `session.modeChanged` entry; only once it is committed does the
 * memory follow, and the log's listeners broadcast it after that. This object subscribes to the
 * log when it is made, so it must be made before anything that broadcasts (the WebSocket router):
 * listeners run in the order they subscribed. A write that fails throws and changes nothing.
 */
export class ExecutionStates {
  private readonly modes = new Map<string, ExecutionMode>();
  private readonly readers = new Map<string, () => ExecutionMode>();
  private readonly unsubscribe: () => void;

  constructor(private readonly log: SessionLog) {
    this.unsubscribe = log.subscribe((sessionId, { entry }) => {
      if (entry.kind === "session.created" || entry.kind === "session.modeChanged") {
        this.modes.set(sessionId, readExecutionMode(entry.mode));
      }
    });
  }

  /** The current mode; after a restart it is read back from the session's log. */
  get(sessionId: string): ExecutionMode {
    let mode = this.modes.get(sessionId);
    if (!mode) {
      mode =
        modeFromEntries(this.log.entriesAfter(sessionId, 0)) ??
        this.log.requireSession(sessionId).mode;
      this.modes.set(sessionId, mode);
    }
    return { ...mode };
  }

  /**
   * The session's mode as its tools read it while they run: one function per session, not
   * one per call (issue 15: a closure and its context for every call waiting on the user).
   */
  reader(sessionId: string): () => ExecutionMode {
    let read = this.readers.get(sessionId);
    if (!read) {
      read = () => this.get(sessionId);
      this.readers.set(sessionId, read);
    }
    return read;
  }

  /** P4: persist, then apply, then broadcast. Returns the mode in force afterwards. */
  change(sessionId: string, next: ExecutionMode): ExecutionMode {
    const current = this.get(sessionId);
    if (sameMode(current, next)) return current;
    this.log.append(sessionId, { kind: "session.modeChanged", mode: { ...next } });
    return this.get(sessionId);
  }

  /** P1: plan on or off; leaving plan keeps the permission mode that was under it. */
  setPlan(sessionId: string, enabled: boolean): ExecutionMode {
    const current = this.get(sessionId);
    return this.change(sessionId, { permissionMode: current.permissionMode, planEnabled: enabled });
  }

  /** W15: a deleted session's mode is not kept. */
  forget(sessionId: string): void {
    this.modes.delete(sessionId);
    this.readers.delete(sessionId);
  }

  dispose(): void {
    this.unsubscribe();
  }
}
