import pg from "pg";
import type { SessionEntry } from "../../../protocol/index.ts";
import { FakeClock } from "../../interactions/fakeClock.ts";
import { startTestPostgres, type TestPostgres } from "../../testing/testPostgres.ts";
import { AlreadyResolvedError } from "../errors.ts";
import { openStore, type Store } from "../store.ts";
import type { EntryNotice } from "./entryChannel.ts";
import { type EntryNotifications, listenForEntries } from "./entryNotifications.ts";

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startTestPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
});

const resolution: SessionEntry = {
  kind: "interaction.resolved",
  interactionId: "q1",
  outcome: { type: "cancelled" },
};

describe("entry notifications on PostgreSQL", () => {
  let url: string;
  let writer: Store;
  let reader: Store;
  let listener: EntryNotifications;
  const notices: EntryNotice[] = [];
  let gaps = 0;

  beforeEach(async () => {
    url = await postgres.newDatabase();
    writer = openStore(url, new FakeClock());
    reader = openStore(url, new FakeClock());
    notices.length = 0;
    gaps = 0;
    listener = await listenForEntries(url, {
      onEntry: (notice) => notices.push(notice),
      onGap: () => {
        gaps += 1;
      },
    });
    writer.log.createSession({
      id: "s1",
      title: "t",
      model: "scripted:demo",
      mode: { permissionMode: "build", planEnabled: false },
    });
  });
  afterEach(async () => {
    await listener.close();
    writer.close();
    reader.close();
  });

  it("[S2] an entry committed through one store reaches a listener with its session and seq; another store reads it", async () => {
    const stored = writer.log.append("s1", { kind: "user.message", text: "hello" });
    await vi.waitFor(() => expect(notices).toHaveLength(2));
    expect(notices).toEqual([
      { sessionId: "s1", seq: 1 },
      { sessionId: "s1", seq: stored.seq },
    ]);
    expect(reader.log.entriesAfter("s1", 1)).toEqual([stored]);
  });

  it("[S2] a write that is refused (a second resolution) announces nothing", async () => {
    writer.log.append("s1", resolution);
    expect(() => reader.log.append("s1", resolution)).toThrow(AlreadyResolvedError);
    const marker = writer.log.append("s1", { kind: "user.message", text: "after" });
    await vi.waitFor(() => expect(notices.map((notice) => notice.seq)).toContain(marker.seq));
    expect(notices.map((notice) => notice.seq)).toEqual([1, 2, marker.seq]);
    expect(marker.seq).toBe(3);
  });

  it("[S2] a listener whose connection is cut comes back and reports the gap", async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'plangate listener' AND datname = current_database()",
    );
    await admin.end();
    await vi.waitFor(() => expect(gaps).toBe(1), { timeout: 10_000 });
    const stored = writer.log.append("s1", { kind: "user.message", text: "after the gap" });
    await vi.waitFor(() => expect(notices.map((notice) => notice.seq)).toContain(stored.seq));
  });
});
