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
