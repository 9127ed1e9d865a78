import { test as base, expect } from "@playwright/test";
import { PlangateServer, type ServerOptions } from "./server.ts";

interface Fixtures {
  scenario: string;
  serverArgs: string[];
  server: PlangateServer;
}

export const test = base.extend<Fixtures>({
  scenario: ["demo", { option: true }],
  serverArgs: [[], { option: true }],
  server: async ({ scenario, serverArgs }, use, testInfo) => {
    const options: ServerOptions = { scenario, args: serverArgs };
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
