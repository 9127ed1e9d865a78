import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerOptions } from "../http/server.ts";
import { tempDir } from "./helpers.ts";
import { startTestServer, type TestServer } from "./testServer.ts";
import { TestClient } from "./wsClient.ts";

/**
 * A describe block's real server playing `scenario`, started once, with every client a test
 * opens through it closed after that test. The model's name ends in `fileName`.
 */
export function useScenarioServer(
  scenario: string,
  overrides: Partial<ServerOptions> = {},
  fileName = "scenario.yaml",
) {
  let running: TestServer | undefined;
  let scenarioDir: ReturnType<typeof tempDir> | undefined;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    scenarioDir = tempDir();
    const file = join(scenarioDir.path, fileName);
    writeFileSync(file, scenario);
    running = await startTestServer({ model: `scripted:${file}`, ...overrides });
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  afterAll(async () => {
    await running?.stop();
    scenarioDir?.remove();
  });

  const server = (): TestServer => {
    if (!running) throw new Error("the scenario server starts in beforeAll");
    return running;
  };
  return {
    server,
    /** Closes `client` after the test. */
    track(client: TestClient): TestClient {
      clients.push(client);
      return client;
    },
    /** A client past hello, closed after the test. */
    async greeted() {
      const opened = await TestClient.greeted(server().wsUrl, server().browserHeaders);
      clients.push(opened.client);
      return opened;
    },
  };
}
