import pg from "pg";
import { FakeClock } from "../interactions/fakeClock.ts";
import { startTestPostgres, type TestPostgres } from "../testing/testPostgres.ts";
import { ForeignDatabaseError } from "./database.ts";
import { lockStore, openStore, type Store } from "./store.ts";
import { describeStore } from "./storeSuite.ts";

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describeStore("PostgreSQL", () => server.newDatabase());

/** A store on `url` holding one empty session, `s1`. */
function storeWithSession(url: string): Store {
  const store = openStore(url, new FakeClock());
  store.log.createSession({
    id: "s1",
    title: "t",
    model: "scripted:demo",
    mode: { permissionMode: "build", planEnabled: false },
  });
  return store;
}

describe("store: PostgreSQL only", () => {
  it("[S1] migrates an empty database once; a reopen finds it at the newest version", async () => {
    const url = await server.newDatabase();
    const first = openStore(url, new FakeClock());
    const version = first.db.get<{ version: number }>("SELECT version FROM plangate_schema");
    first.close();
    const again = openStore(url, new FakeClock());
    expect(again.db.get("SELECT version FROM plangate_schema")).toEqual(version);
    expect(version?.version).toBeGreaterThan(0);
    again.close();
  });

  it("[S1][R13] refuses a database with another application's tables and changes nothing", async () => {
    const url = await server.newDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("CREATE TABLE invoices (id INT)");
    expect(() => openStore(url, new FakeClock())).toThrow(ForeignDatabaseError);
    const tables = await client.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    await client.end();
    expect(tables.rows).toEqual([{ table_name: "invoices" }]);
  });

  it("[X2][S2] the database itself refuses a second late answer to a question, past the log's check", async () => {
    const url = await server.newDatabase();
    const store = storeWithSession(url);
    store.log.append("s1", {
      kind: "user.message",
      text: "Red after all",
      synthetic: true,
      lateAnswerFor: "q1",
    });
    const insert = (seq: number, interactionId: string | null) =>
      store.db.run(
        "INSERT INTO entries (session_id, seq, at, kind, body, interaction_id) VALUES ('s1', ?, 0, 'user.message', '{}', ?)",
        [seq, interactionId],
      );
    expect(() => insert(10, "q1")).toThrow(/entries_one_late_answer/);
    insert(11, "q2");
    insert(12, null);
    insert(13, null);
    store.close();
  });

  it("[S2] a second server on the same PostgreSQL database starts too; each names itself", async () => {
    const url = await server.newDatabase();
    const first = openStore(url, new FakeClock());
    lockStore(url, first).recordPort(7421);
    const second = openStore(url, new FakeClock());
    lockStore(url, second).recordPort(7422);
    const names = first.db
      .all<{ name: string }>(
        "SELECT application_name AS name FROM pg_stat_activity WHERE datname = current_database() ORDER BY 1",
      )
      .map((row) => row.name);
    expect(names).toContain(`plangate pid ${process.pid}, port 7421: http://127.0.0.1:7421/`);
    expect(names).toContain(`plangate pid ${process.pid}, port 7422: http://127.0.0.1:7422/`);
    first.close();
    second.close();
  });

  it("[S1][R6] a lost connection is replaced between writes; nothing is lost or doubled", async () => {
    const url = await server.newDatabase();
    const store = storeWithSession(url);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'plangate' AND datname = current_database()",
    );
    await admin.end();
    // The worker learns of the loss from its socket.
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
    const after = store.log.append("s1", { kind: "user.message", text: "after" });
    expect(store.log.entriesAfter("s1", 0).map((stored) => stored.seq)).toEqual([1, after.seq]);
    expect(after.seq).toBe(2);
    store.close();
  });

  it("[S1][R6] a connection lost inside a transaction fails it whole; no statement runs outside it", () => {
    const store = openStore(server.url, new FakeClock());
    const write = (key: string) =>
      store.db.run("INSERT INTO settings (key, value) VALUES (?, '1')", [key]);
    expect(() =>
      store.db.transaction(() => {
        write("before_loss");
        expect(() => store.db.get("SELECT pg_terminate_backend(pg_backend_pid())")).toThrow();
        write("after_loss");
      }),
    ).toThrow(/lost in a transaction|Connection terminated/);
    expect(store.db.all("SELECT key FROM settings WHERE key LIKE '%loss'")).toEqual([]);
    write("next");
    expect(store.db.all("SELECT key FROM settings WHERE key = 'next'")).toEqual([{ key: "next" }]);
    store.close();
  });

  it("[S1] a store whose server is unreachable fails with a storage error naming the cause", () => {
    expect(() => openStore("postgres://plangate@127.0.0.1:1/nowhere", new FakeClock())).toThrow(
      /ECONNREFUSED|connect/,
    );
  });
});
