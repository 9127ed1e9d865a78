import pg from "pg";
import {
  CANCEL_CHANNEL,
  type CancelNotice,
  ENTRY_CHANNEL,
  type EntryNotice,
  parseCancelNotice,
  parseEntryNotice,
  parseSessionNotice,
  SESSION_CHANNEL,
  type SessionNotice,
} from "./entryChannel.ts";

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
  /** A server asked for the session's turn to stop; the one running it does. */
  onCancel?(notice: CancelNotice): void;
  /** A session some server renamed or deleted. */
  onSessionChange?(notice: SessionNotice): void;
  /**
   * R3: the connection failed (`again` false), or could not be made again: PostgreSQL is
   * likely away for the store's connection too, even before it next runs a statement.
   */
  onTrouble?(error: unknown, again: boolean): void;
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
      if (message.channel === CANCEL_CHANNEL) {
        const cancel = parseCancelNotice(message.payload);
        if (cancel) callbacks.onCancel?.(cancel);
        return;
      }
      if (message.channel === SESSION_CHANNEL) {
        const change = parseSessionNotice(message.payload);
        if (change) callbacks.onSessionChange?.(change);
        return;
      }
      const notice = message.channel === ENTRY_CHANNEL && parseEntryNotice(message.payload);
      if (notice) callbacks.onEntry(notice);
    });
    fresh.on("error", (error) => lost(fresh, error));
    fresh.on("end", () => lost(fresh));
    await fresh.connect();
    await fresh.query(
      `LISTEN ${ENTRY_CHANNEL}; LISTEN ${CANCEL_CHANNEL}; LISTEN ${SESSION_CHANNEL}`,
    );
    client = fresh;
  };

  const lost = (which: pg.Client, error?: Error) => {
    if (closed || client !== which) return;
    client = undefined;
    // The driver's "Connection terminated unexpectedly" has no code: this says what it was.
    const loss = new Error(error?.message ?? "the listening connection ended", { cause: error });
    callbacks.onTrouble?.(Object.assign(loss, { code: "PG_CONNECTION_LOST" }), false);
    which.removeAllListeners("notification");
    void which.end().catch(() => {});
    const again = () => {
      retry = undefined;
      if (closed) return;
      connect().then(
        () => callbacks.onGap(),
        (error: unknown) => {
          if (closed) return;
          callbacks.onTrouble?.(error, true);
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
