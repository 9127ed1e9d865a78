import {
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { PROTOCOL_VERSION } from "../protocol/index.ts";
import { messagesOf, RawMcpClient } from "./mcp/rawMcpClient.ts";
import { CliProcess } from "./testing/cliProcess.ts";
import { tempDir } from "./testing/helpers.ts";
import { TestClient } from "./testing/wsClient.ts";

const repoRoot = resolve(import.meta.dirname, "../..");

/** The page as a browser opens the printed URL: its token redirect, then the page. */
async function openPage(url: URL): Promise<Response> {
  const first = await fetch(url, { redirect: "manual", headers: { accept: "text/html" } });
  const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  return fetch(new URL(first.headers.get("location") ?? "/", url), {
    headers: { cookie, accept: "text/html" },
  });
}
const PAGE = '<!doctype html><div id="root">launcher test page</div>';

// `npm start` is `node scripts/start.cjs`: run it in a copy of the project, so the bundle it
// builds (dist-server/) is this test's own and the repository's is never touched.
describe("the npm start launcher", () => {
  let tree: ReturnType<typeof tempDir>;
  let workspace: ReturnType<typeof tempDir>;
  const running: CliProcess[] = [];
  const clients: TestClient[] = [];

  beforeAll(() => {
    tree = tempDir("plangate-launcher-");
    for (const source of ["package.json", "scripts", "src"]) {
      cpSync(join(repoRoot, source), join(tree.path, source), { recursive: true });
    }
    symlinkSync(join(repoRoot, "node_modules"), join(tree.path, "node_modules"), "dir");
    mkdirSync(join(tree.path, "dist"));
    writeFileSync(join(tree.path, "dist", "index.html"), PAGE);
  });
  beforeEach(() => {
    workspace = tempDir();
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    for (const cli of running.splice(0)) await cli.kill();
    workspace.remove();
  });
  afterAll(() => tree.remove());

  const launch = (args: string[]) => {
    const cli = CliProcess.node(["scripts/start.cjs", ...args], tree.path);
    running.push(cli);
    return cli;
  };

  const help = async () => {
    const cli = launch(["--help"]);
    expect(await cli.exited()).toBe(0);
    return cli.output;
  };

  it("[R1] builds the server bundle, which serves the page behind the token and says hello on /ws", async () => {
    const cli = launch([
      "--port",
      "0",
      "--workspace",
      workspace.path,
      "--token",
      "tok",
      "--no-build",
    ]);
    const url = await cli.url();
    expect(cli.output).toContain("plangate: built the server into dist-server/");
    expect(url.hostname).toBe("127.0.0.1");

    const first = await fetch(url, { redirect: "manual", headers: { accept: "text/html" } });
    expect(first.status).toBe(302);
    const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const page = await fetch(new URL(first.headers.get("location") ?? "/", url), {
      headers: { cookie, accept: "text/html" },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(PAGE);

    const client = await TestClient.open(`ws://${url.host}/ws?token=tok`);
    clients.push(client);
    client.send({ type: "hello", protocol: PROTOCOL_VERSION });
    const welcome = await client.next("welcome");
    expect(welcome.protocol).toBe(PROTOCOL_VERSION);
    // R2: a bad frame is told what is wrong in English (the bundle keeps zod's English locale).
    const bad = await TestClient.open(`ws://${url.host}/ws?token=tok`);
    clients.push(bad);
    bad.send({ type: "hello", protocol: PROTOCOL_VERSION, device: { id: "", label: "x" } });
    const error = await bad.next("error");
    expect(error).toMatchObject({ code: "BAD_FRAME" });
    expect(JSON.stringify(error)).toMatch(/too small/i);

    // B1: the bundle loads the MCP SDK on this first /mcp request (a bundled import(), which a
    // script compiled from cached data can make).
    const agent = new RawMcpClient(new URL("/mcp", url).href, "tok");
    const mcp = await agent.initialize("launcher-test");
    expect(mcp.status).toBe(200);
    expect(agent.sessionId).toBeTruthy();
    expect(messagesOf(mcp)[0]).toMatchObject({ result: { serverInfo: { name: "plangate" } } });
  }, 60_000);

  it("[R1] starts and serves the page without loading Node's http2, https, tls or zlib, nor requiring better-sqlite3 from node_modules (issue 15: restart)", async () => {
    // Written when the server exits: which of Node's modules it loaded until then, and which
    // files it required by path.
    const loaded = join(workspace.path, "loaded.json");
    const record = join(workspace.path, "record.cjs");
    writeFileSync(
      record,
      `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(loaded)}, JSON.stringify({ modules: process.moduleLoadList, required: Object.keys(require.cache) })));`,
    );
    const cli = CliProcess.node(
      ["--require", record, "scripts/start.cjs", "--port", "0", "--workspace", workspace.path],
      tree.path,
    );
    running.push(cli);
    const url = await cli.url();
    expect((await openPage(url)).status).toBe(200);
    // What is loaded on first use still works: a file that fails to send (http-errors).
    const first = await fetch(url, { redirect: "manual", headers: { accept: "text/html" } });
    const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const missing = await fetch(new URL("/no-such-asset.js", url), { headers: { cookie } });
    expect(missing.status).toBe(404);
    await cli.kill("SIGTERM");
    const { modules, required }: { modules: string[]; required: string[] } = JSON.parse(
      readFileSync(loaded, "utf8"),
    );
    expect(modules).toContain("NativeModule http");
    expect(modules.filter((name) => /^NativeModule (http2|https|tls|zlib)$/.test(name))).toEqual(
      [],
    );
    // The session database is open (the page is served): the bundle's copy of the driver
    // loaded only its addon from node_modules.
    const driver = required.filter((path) => path.includes("/better-sqlite3/"));
    expect(driver.map((path) => path.replace(/.*\/better-sqlite3\//, ""))).toEqual([
      "build/Release/better_sqlite3.node",
    ]);
  }, 60_000);

  const codeCaches = () =>
    readdirSync(join(tree.path, "dist-server")).filter((name) => name.endsWith(".v8cache"));

  it("[R1] rebuilds a bundle made before the file carried its own function wrapper (issue 15: restart)", async () => {
    expect(await help()).toContain("Usage:");
    const stampPath = join(tree.path, "dist-server", "stamp.json");
    const { wrapped: _, ...older } = JSON.parse(readFileSync(stampPath, "utf8"));
    writeFileSync(stampPath, JSON.stringify(older));
    const afterUpgrade = await help();
    expect(afterUpgrade).toContain("plangate: built the server into dist-server/");
    expect(afterUpgrade).toContain("Usage:");
  }, 60_000);

  it("[R1] keeps the code cache once the first page has been served, not after start-up alone (issue 15: restart)", async () => {
    expect(await help()).toContain("Usage:");
    for (const cache of codeCaches()) rmSync(join(tree.path, "dist-server", cache));
    const cli = launch(["--port", "0", "--workspace", workspace.path, "--token", "tok"]);
    const url = await cli.url();
    // Long enough for a start-up without requests to have been taken as the whole of one.
    await new Promise((done) => setTimeout(done, 1500));
    expect(codeCaches()).toEqual([]);
    expect((await openPage(url)).status).toBe(200);
    await vi.waitFor(() => expect(codeCaches()).toHaveLength(1), { timeout: 10_000 });
  }, 60_000);

  it("[R1] reuses a fresh bundle and its code cache, and rebuilds a stale one before running it", async () => {
    await help();
    const [cache] = codeCaches();
    expect(cache).toBeDefined();
    expect(await help()).not.toContain("built the server");
    expect(codeCaches()).toEqual([cache]);

    const cliOptions = join(tree.path, "src", "server", "cliOptions.ts");
    const edited = readFileSync(cliOptions, "utf8").replace(
      "Usage: npm start -- [options]",
      "Usage: npm start -- [options] (edited after the build)",
    );
    writeFileSync(cliOptions, edited);
    const afterEdit = await help();
    expect(afterEdit).toContain("plangate: built the server into dist-server/");
    expect(afterEdit).toContain("(edited after the build)");
    expect(codeCaches()).not.toContain(cache);
    expect(await help()).not.toContain("built the server");

    const yesterday = new Date(Date.now() - 86_400_000);
    writeFileSync(cliOptions, edited.replace("(edited after the build)", "(an older copy)"));
    utimesSync(cliOptions, yesterday, yesterday);
    expect(await help()).toContain("(an older copy)");

    writeFileSync(
      cliOptions,
      edited.replace("export const DEFAULT_PORT", "export const DEFAULT_PORT ="),
    );
    const broken = launch(["--help"]);
    expect(await broken.exited()).toBe(1);
    expect(broken.output).toContain("plangate: could not build the server");
    expect(broken.output).not.toContain("Usage:");
  }, 60_000);
});
