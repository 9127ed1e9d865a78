/** S2: the NOTIFY channel on which every committed entry is announced as `<sessionId> <seq>`. */
export const ENTRY_CHANNEL = "plangate_entries";

/** S2: the channel on which a server asks whichever server runs a session's turn to stop it. */
export const CANCEL_CHANNEL = "plangate_cancels";

export interface CancelNotice {
  sessionId: string;
  reason: string;
}

export function cancelPayload(notice: CancelNotice): string {
  return `${notice.sessionId} ${notice.reason}`;
}

export function parseCancelNotice(payload: string | undefined): CancelNotice | undefined {
  const match = /^(\S+) (.+)$/s.exec(payload ?? "");
  return match ? { sessionId: match[1]!, reason: match[2]! } : undefined;
}

export interface EntryNotice {
  sessionId: string;
  seq: number;
}

export function parseEntryNotice(payload: string | undefined): EntryNotice | undefined {
  const match = /^(\S+) (\d+)$/.exec(payload ?? "");
  return match ? { sessionId: match[1]!, seq: Number(match[2]) } : undefined;
}

/**
 * S2: renames and deletes write no entry, so they are announced on their own channel as
 * `<sessionId> <change> <from>`, `from` naming the SessionLog that made them (it ignores its own).
 */
export const SESSION_CHANNEL = "plangate_sessions";

export type SessionChange = "renamed" | "deleted";

export interface SessionNotice {
  sessionId: string;
  change: SessionChange;
  from: string;
}

export function sessionPayload(notice: SessionNotice): string {
  return `${notice.sessionId} ${notice.change} ${notice.from}`;
}

export function parseSessionNotice(payload: string | undefined): SessionNotice | undefined {
  const match = /^(\S+) (renamed|deleted) (\S+)$/.exec(payload ?? "");
  return match
    ? { sessionId: match[1]!, change: match[2] as SessionChange, from: match[3]! }
    : undefined;
}
