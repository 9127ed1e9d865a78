import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StoredEntry } from "../../protocol/index.ts";
import type { ServerOptions } from "../http/server.ts";
import { tempDir } from "./helpers.ts";
import { startTestPostgres, type TestPostgres } from "./testPostgres.ts";
import { startTestServer, type TestServer } from "./testServer.ts";
import { TestClient } from "./wsClient.ts";

/**
 * S2: a describe block's throwaway PostgreSQL, and a way to start several real servers on one
 * fresh database of it playing `scenario`, each with a greeted client; all closed after each test.
 */
export function useServersOnPostgres(scenario: string) {
  let postgres: TestPostgres | undefined;
  let scenarioDir: ReturnType<typeof tempDir> | undefined;
  const servers: TestServer[] = [];
  const clients: TestClient[] = [];

  beforeAll(async () => {
    postgres = await startTestPostgres();
    scenarioDir = tempDir();
    writeFileSync(join(scenarioDir.path, "scenario.yaml"), scenario);
  }, 60_000);
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    for (const server of servers.splice(0)) await server.stop();
  });
  afterAll(async () => {
    await postgres?.stop();
    scenarioDir?.remove();
  });

  const pg = (): TestPostgres => {
    if (!postgres) throw new Error("PostgreSQL starts in beforeAll");
    return postgres;
  };
  return {
    postgres: pg,
    scenarioFile: () => join(scenarioDir?.path ?? "", "scenario.yaml"),
    async start(count: number, overrides: Partial<ServerOptions> = {}) {
      const dbPath = await pg().newDatabase();
      const started: { server: TestServer; client: TestClient }[] = [];
      for (let index = 0; index < count; index++) {
        const server = await startTestServer({
          dbPath,
          model: `scripted:${join(scenarioDir?.path ?? "", "scenario.yaml")}`,
          timings: { graceMs: 60_000, deadlineMs: 300_000 },
          ...overrides,
        });
        servers.push(server);
        const { client } = await TestClient.greeted(server.wsUrl, server.browserHeaders);
        clients.push(client);
        started.push({ server, client });
      }
      return { dbPath, started };
    },
  };
}

/**
 * S2: a session created through `creator`'s server and opened through `follower`'s once that
 * server has announced it; its id.
 */
export async function sessionOnBoth(
  creator: TestClient,
  follower: TestClient,
  title: string,
): Promise<string> {
  creator.send({ type: "session.create", title });
  const sessionId = (await creator.next("snapshot")).session.id;
  await follower.next("session.upserted", (frame) => frame.session.id === sessionId);
  follower.send({ type: "session.open", sessionId });
  await follower.next("snapshot", (frame) => frame.session.id === sessionId);
  return sessionId;
}

/** Matches an `event` frame of the session carrying an entry of that kind. */
export const kindIs =
  (sessionId: string, kind: StoredEntry["entry"]["kind"]) =>
  (frame: { sessionId: string; entry: { kind: string } }) =>
    frame.sessionId === sessionId && frame.entry.kind === kind;
