import { test as base, expect } from "@playwright/test";
import { PlangateServer, type ServerOptions } from "./server.ts";

interface Fixtures {
  scenario: string;
  serverArgs: string[];
  /** The server's clock stands still until the test steps `server.clock` (--test-clock). */
  steppedClock: boolean;
  /**
   * Run on the worker's server for this scenario and these flags instead of a fresh one. Only
   * for tests that open their own session and read nothing server-wide: no page goldens (the
   * sidebar lists the other tests' sessions), no inbox counts, no settings, no restarts.
   */
  sharedServer: boolean;
  server: PlangateServer;
}

interface WorkerFixtures {
  workerServers: WorkerServers;
}

/** One server per scenario and flags, started on first use and stopped with the worker. */
class WorkerServers {
  private readonly started = new Map<string, Promise<PlangateServer>>();

  get(options: ServerOptions): Promise<PlangateServer> {
    const key = JSON.stringify([options.scenario, options.args ?? [], options.steppedClock]);
    let server = this.started.get(key);
    if (!server) {
      const fresh = new PlangateServer(options);
      server = fresh.start().then(() => fresh);
      this.started.set(key, server);
    }
    return server;
  }

  async stopAll(): Promise<void> {
    for (const pending of this.started.values()) {
      const server = await pending.catch(() => undefined);
      if (!server) continue;
      await server.stop();
      server.dispose();
    }
  }
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  scenario: ["demo", { option: true }],
  serverArgs: [[], { option: true }],
  steppedClock: [false, { option: true }],
  sharedServer: [false, { option: true }],
  workerServers: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      const servers = new WorkerServers();
      await use(servers);
      await servers.stopAll();
    },
    { scope: "worker" },
  ],
  server: async (
    { scenario, serverArgs, steppedClock, sharedServer, workerServers },
    use,
    testInfo,
  ) => {
    const options: ServerOptions = { scenario, args: serverArgs, steppedClock };
    if (sharedServer) {
      const server = await workerServers.get(options);
      await use(server);
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach("server-log", { body: server.logs(), contentType: "text/plain" });
      }
      return;
    }
    const server = new PlangateServer(options);
    await server.start();
    await use(server);
    await server.stop();
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach("server-log", { body: server.logs(), contentType: "text/plain" });
    }
    server.dispose();
  },
});

export { expect };
