/** S2: the NOTIFY channel on which every committed entry is announced as `<sessionId> <seq>`. */
export const ENTRY_CHANNEL = "plangate_entries";

export interface EntryNotice {
  sessionId: string;
  seq: number;
}

export function parseEntryNotice(payload: string | undefined): EntryNotice | undefined {
  const match = /^(\S+) (\d+)$/.exec(payload ?? "");
  return match ? { sessionId: match[1]!, seq: Number(match[2]) } : undefined;
}
