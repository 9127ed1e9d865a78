import pg from "pg";
import { ENTRY_CHANNEL, type EntryNotice, parseEntryNotice } from "./entryChannel.ts";

export interface EntryNotifications {
  close(): Promise<void>;
}

export interface EntryListenerCallbacks {
  /** An entry some server committed; the entry itself is read from the store. */
  onEntry(notice: EntryNotice): void;
  /**
   * The connection was lost and is back: notices in between are gone, so whoever follows a
   * session reads everything after the last seq it has.
   */
  onGap(): void;
}

const RETRY_MS = 500;

/**
 * S2: follows the entries every server on the database commits (LISTEN on its own
 * connection, separate from the store's), reconnecting after a loss and reporting the gap.
 */
export async function listenForEntries(
  url: string,
  callbacks: EntryListenerCallbacks,
): Promise<EntryNotifications> {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const fresh = new pg.Client({ connectionString: url, application_name: "plangate listener" });
    fresh.on("notification", (message) => {
      const notice = message.channel === ENTRY_CHANNEL && parseEntryNotice(message.payload);
      if (notice) callbacks.onEntry(notice);
    });
    fresh.on("error", () => lost(fresh));
    fresh.on("end", () => lost(fresh));
    await fresh.connect();
    await fresh.query(`LISTEN ${ENTRY_CHANNEL}`);
    client = fresh;
  };

  const lost = (which: pg.Client) => {
    if (closed || client !== which) return;
    client = undefined;
    which.removeAllListeners("notification");
    void which.end().catch(() => {});
    const again = () => {
      retry = undefined;
      if (closed) return;
      connect().then(
        () => callbacks.onGap(),
        () => {
          retry = setTimeout(again, RETRY_MS);
        },
      );
    };
    retry = setTimeout(again, RETRY_MS);
  };

  await connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}
