import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer, type RunningServer, type ServerOptions } from "../http/server.ts";
import { tempDir } from "./helpers.ts";

export interface TestServer {
  server: RunningServer;
  workspace: string;
  dbPath: string;
  origin: string;
  wsUrl: string;
  /** Headers a browser on the page would send with the WebSocket upgrade. */
  browserHeaders: Record<string, string>;
  restart(overrides?: Partial<ServerOptions>): Promise<void>;
  stop(): Promise<void>;
}

/** A real server on 127.0.0.1:0 with a temp workspace, database and a tiny built page. */
export async function startTestServer(overrides: Partial<ServerOptions> = {}): Promise<TestServer> {
  const dir = tempDir();
  const root = realpathSync(dir.path);
  const workspace = join(root, "ws");
  const distDir = join(root, "dist");
  mkdirSync(workspace);
  mkdirSync(join(distDir, "assets"), { recursive: true });
  writeFileSync(join(workspace, "README.md"), "# Test workspace\n");
  writeFileSync(join(distDir, "index.html"), "<!doctype html><title>plangate</title>");
  writeFileSync(join(distDir, "assets", "app.js"), "console.log(1)");
  const dbPath = join(workspace, ".zcode", "plangate.db");
  const token = "t".repeat(64);

  const options = (extra: Partial<ServerOptions>): ServerOptions => ({
    workspace,
    dbPath,
    distDir,
    token,
    ...overrides,
    ...extra,
  });
  const handle: TestServer = {
    server: await createServer(options({})),
    workspace,
    dbPath,
    origin: "",
    wsUrl: "",
    browserHeaders: {},
    async restart(extra = {}) {
      await handle.server.close();
      handle.server = await createServer(options(extra));
      describeUrls();
    },
    async stop() {
      await handle.server.close();
      dir.remove();
    },
  };
  const describeUrls = () => {
    handle.origin = `http://127.0.0.1:${handle.server.port}`;
    handle.wsUrl = `ws://127.0.0.1:${handle.server.port}/ws`;
    handle.browserHeaders = {
      origin: handle.origin,
      cookie: `plangate_token_${handle.server.port}=${handle.server.token}`,
    };
  };
  describeUrls();
  return handle;
}

/** The first MCP agent's session once a question of its is pending (tests poll for it). */
export async function mcpQuestionSoon(test: TestServer) {
  for (let i = 0; i < 200; i++) {
    const session = test.server.sessions.summaries().find((s) => s.model.startsWith("mcp/"));
    const pending = session ? test.server.interactions.pending(session.id) : [];
    if (session && pending.length > 0) return { session, pending };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("no pending interaction appeared");
}
