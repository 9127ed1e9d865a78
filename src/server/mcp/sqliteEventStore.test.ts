import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import BetterSqlite3 from "better-sqlite3";
import { SqliteEventStore } from "./sqliteEventStore.ts";

const ping = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, method: "ping" });

describe("SQLite event store (B3)", () => {
  it("[B3] replays a stream's events after the last one the agent saw, in order, skipping the priming event and other streams", async () => {
    const db = new BetterSqlite3(":memory:");
    const store = new SqliteEventStore(db);
    const primed = await store.storeEvent("a", {} as JSONRPCMessage);
    await store.storeEvent("a", ping(1));
    await store.storeEvent("b", ping(99));
    await store.storeEvent("a", ping(2));
    const sent: Array<[string, JSONRPCMessage]> = [];
    const stream = await store.replayEventsAfter(primed, {
      send: async (id, message) => {
        sent.push([id, message]);
      },
    });
    expect(stream).toBe("a");
    expect(sent.map(([, message]) => message)).toEqual([ping(1), ping(2)]);
    expect(await store.getStreamIdForEventId(sent[0]![0])).toBe("a");
    expect(await store.getStreamIdForEventId("nope")).toBeUndefined();
  });

  it("[B3] events outlive the store object (a restart), and expire after a day", async () => {
    const db = new BetterSqlite3(":memory:");
    let now = 1_000;
    const first = new SqliteEventStore(db, () => now);
    const id = await first.storeEvent("a", ping(1));
    const reopened = new SqliteEventStore(db, () => now);
    expect(await reopened.getStreamIdForEventId(id)).toBe("a");
    now += 25 * 60 * 60 * 1000;
    reopened.prune();
    expect(await reopened.getStreamIdForEventId(id)).toBeUndefined();
  });
});
