import { type ExecutionMode, PermissionMode, type SessionEntry } from "../../protocol/index.ts";

const DEFAULT_MODE: ExecutionMode = { permissionMode: "build", planEnabled: false };

/**
 * P1: reads a stored mode, old shapes included. Plan used to be a permission mode of its
 * own (`"plan"`, or `{permissionMode: "plan"}`); it now reads as plan on top of build.
 * Anything unreadable falls back to build, which asks before every change.
 */
export function readExecutionMode(stored: unknown): ExecutionMode {
  if (typeof stored === "string") return fromName(stored, false);
  if (stored === null || typeof stored !== "object") return { ...DEFAULT_MODE };
  const { permissionMode, planEnabled } = stored as Record<string, unknown>;
  return fromName(typeof permissionMode === "string" ? permissionMode : "", planEnabled === true);
}

function fromName(name: string, planEnabled: boolean): ExecutionMode {
  if (name === "plan") return { permissionMode: "build", planEnabled: true };
  const parsed = PermissionMode.safeParse(name);
  return { permissionMode: parsed.success ? parsed.data : "build", planEnabled };
}

/** Entries read back from the log carry today's mode shape, whatever shape they were stored in. */
export function upgradeStoredEntry(entry: SessionEntry): SessionEntry {
  if (entry.kind === "session.created" || entry.kind === "session.modeChanged") {
    return { ...entry, mode: readExecutionMode(entry.mode) };
  }
  return entry;
}

export function sameMode(a: ExecutionMode, b: ExecutionMode): boolean {
  return a.permissionMode === b.permissionMode && a.planEnabled === b.planEnabled;
}

/** The mode a session log ends in: its last `session.created` or `session.modeChanged`. */
export function modeFromEntries(
  entries: readonly { entry: SessionEntry }[],
): ExecutionMode | undefined {
  for (let index = entries.length - 1; index >= 0; index--) {
    const { entry } = entries[index]!;
    if (entry.kind === "session.created" || entry.kind === "session.modeChanged") {
      return readExecutionMode(entry.mode);
    }
  }
  return undefined;
}
