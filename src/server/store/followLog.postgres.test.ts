import type { StoredEntry } from "../../protocol/index.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import { startTestPostgres, type TestPostgres } from "../testing/testPostgres.ts";
import type { EntryOrigin } from "./sessionLog.ts";
import { openStore } from "./store.ts";

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe("[S2] a store following other servers' entries", () => {
  it("[S2] announces another server's entries once, in seq order with its own; a gap before its own entry is read first", async () => {
    const url = await server.newDatabase();
    const here = openStore(url, new FakeClock());
    const there = openStore(url, new FakeClock());
    here.log.createSession({
      id: "s1",
      title: "t",
      model: "scripted:demo",
      mode: { permissionMode: "build", planEnabled: false },
    });
    here.log.follow();
    const heard: [number, EntryOrigin][] = [];
    here.log.subscribe((_sessionId, stored: StoredEntry, origin) =>
      heard.push([stored.seq, origin]),
    );

    there.log.append("s1", { kind: "user.message", text: "two" });
    there.log.append("s1", { kind: "user.message", text: "three" });
    // No notification was handled yet: this server's own write comes with the gap before it.
    here.log.append("s1", { kind: "assistant.message", text: "four" });
    there.log.append("s1", { kind: "assistant.message", text: "five" });
    here.log.heard("s1", 4);
    here.log.heard("s1", 5);
    here.log.heard("s1", 5);
    here.log.catchUpAll();

    expect(heard).toEqual([
      [2, "elsewhere"],
      [3, "elsewhere"],
      [4, "here"],
      [5, "elsewhere"],
    ]);
    here.close();
    there.close();
  });

  it("[S2] a session another server created is read from its first entry", async () => {
    const url = await server.newDatabase();
    const here = openStore(url, new FakeClock());
    const there = openStore(url, new FakeClock());
    here.log.follow();
    const heard: string[] = [];
    here.log.subscribe((sessionId, stored) => heard.push(`${sessionId}:${stored.entry.kind}`));
    there.log.createSession({
      id: "s2",
      title: "t",
      model: "scripted:demo",
      mode: { permissionMode: "build", planEnabled: false },
    });
    there.log.append("s2", { kind: "user.message", text: "hi" });
    here.log.heard("s2", 2);
    expect(heard).toEqual(["s2:session.created", "s2:user.message"]);
    here.close();
    there.close();
  });
});
