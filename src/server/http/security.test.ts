import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { PROTOCOL_VERSION } from "../../protocol/index.ts";
import { tempDir } from "../testing/helpers.ts";
import { startTestServer, type TestServer } from "../testing/testServer.ts";
import { TestClient } from "../testing/wsClient.ts";

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request: the path goes out exactly as written, percent-escapes and dots kept. */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = "";
      res.on("data", (chunk) => {
        text += chunk;
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Every spelling of `/ws` and `/mcp` the router resolves to the same route. */
const SOCKET_LOOKALIKES = ["/ws", "/w%73", "/%77s", "/%77%73", "/W%73".toLowerCase()];
const AGENT_LOOKALIKES = ["/mcp", "/%6Dcp", "/mc%70", "/%6D%63%70"];
const FOREIGN_ORIGINS = [
  "http://127.0.0.1:9999",
  "http://localhost:9999",
  "http://evil.example",
  "null",
  "https://127.0.0.1",
];

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "attacker", version: "1" },
  },
});

describe("[R7] one access decision on the route the router matched", () => {
  let t: TestServer;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestServer();
    cookie = `plangate_token_${t.server.port}=${t.server.token}`;
  });
  afterAll(() => t.stop());

  it("[R7] a same-site page with the cookie cannot open the socket through any spelling of /ws", async () => {
    let attempts = 0;
    let through = 0;
    for (const path of SOCKET_LOOKALIKES) {
      for (const origin of FOREIGN_ORIGINS) {
        attempts++;
        const url = `ws://127.0.0.1:${t.server.port}${path}`;
        const opened = await TestClient.open(url, { origin, cookie }).then(
          (client) => {
            client.close();
            return true;
          },
          () => false,
        );
        if (opened) through++;
      }
    }
    expect({ attempts, through }).toEqual({ attempts: 25, through: 0 });
  });

  it("[R7] an upgrade through a lookalike path still needs the token", async () => {
    for (const path of SOCKET_LOOKALIKES) {
      const url = `ws://127.0.0.1:${t.server.port}${path}`;
      await expect(TestClient.open(url, { origin: t.origin })).rejects.toThrow("401");
    }
  });

  it("[R7] the page's own origin still gets a working socket through an encoded path", async () => {
    const client = await TestClient.open(`ws://127.0.0.1:${t.server.port}/w%73`, t.browserHeaders);
    client.send({ type: "hello", protocol: PROTOCOL_VERSION });
    await client.next("welcome");
    client.close();
  });

  it("[R7] a same-site page with the cookie cannot call MCP through any spelling of /mcp", async () => {
    let attempts = 0;
    let through = 0;
    for (const path of AGENT_LOOKALIKES) {
      for (const origin of FOREIGN_ORIGINS) {
        attempts++;
        const res = await send(
          t.server.port,
          "POST",
          path,
          {
            origin,
            cookie,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          initialize,
        );
        if (res.status !== 403) through++;
      }
    }
    expect({ attempts, through }).toEqual({ attempts: 20, through: 0 });
  });

  it("[R7] an agent without a bearer token cannot reach MCP through a lookalike path", async () => {
    for (const path of AGENT_LOOKALIKES) {
      const res = await send(
        t.server.port,
        "POST",
        path,
        { "content-type": "application/json" },
        initialize,
      );
      expect(res.status).toBe(401);
    }
  });

  it("[R7] an agent with the bearer token and no Origin still reaches MCP", async () => {
    const res = await send(
      t.server.port,
      "POST",
      "/mc%70",
      {
        authorization: `Bearer ${t.server.token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      initialize,
    );
    expect(res.status).toBe(200);
  });

  it("[R7] every state-changing request from a foreign origin is refused, whatever the path", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      for (const path of ["/", "/ws", "/assets/app.js", "/%2e/mcp", "/anything"]) {
        const res = await send(t.server.port, method, path, {
          origin: "http://127.0.0.1:9999",
          cookie,
        });
        expect(res.status, `${method} ${path}`).toBe(403);
      }
    }
  });

  it("[R7] a lookalike Host is refused on every route", async () => {
    for (const host of [
      `127.0.0.1.evil.example:${t.server.port}`,
      `localhost.:${t.server.port}`,
      `127.0.0.1:${t.server.port}@evil.example`,
      "127.0.0.1",
    ]) {
      for (const path of ["/", "/w%73", "/mc%70"]) {
        const res = await send(t.server.port, "GET", path, { host, cookie });
        expect(res.status, `${host} ${path}`).toBe(403);
      }
    }
  });
});

describe("[R8] a strict page", () => {
  let t: TestServer;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestServer();
    cookie = `plangate_token_${t.server.port}=${t.server.token}`;
  });
  afterAll(() => t.stop());

  const csp = (res: RawResponse) => String(res.headers["content-security-policy"] ?? "");

  it("[R8] serves the page, its assets and its error pages with a CSP that loads nothing remote and forbids framing", async () => {
    const responses = [
      await send(t.server.port, "GET", "/", { cookie }),
      await send(t.server.port, "GET", "/assets/app.js", { cookie }),
      await send(t.server.port, "GET", "/some/route", { cookie, accept: "text/html" }),
      await send(t.server.port, "GET", "/"),
    ];
    for (const res of responses) {
      const policy = csp(res);
      expect(policy).toContain("default-src 'self'");
      expect(policy).toContain("img-src 'self' data: blob:");
      expect(policy).toContain("connect-src 'self'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toMatch(/https?:|\*|'unsafe-inline'|'unsafe-eval'/);
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
    }
  });
});

describe("[R13] no open redirect", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.stop());

  it("[R13] the token redirect stays on this server however the path is spelled", async () => {
    const spellings = [
      "/.//evil.example",
      "/..//evil.example",
      "/.///evil.example/x",
      "/%2e//evil.example",
      "/./\\evil.example",
      "/.//\\evil.example",
    ];
    let through = 0;
    for (const path of spellings) {
      const res = await send(t.server.port, "GET", `${path}?token=${t.server.token}`);
      expect(res.status, path).toBe(302);
      const location = String(res.headers.location);
      const target = new URL(location, `http://127.0.0.1:${t.server.port}/`);
      if (target.host !== `127.0.0.1:${t.server.port}` || /^[/\\]{2}/.test(location)) through++;
      expect(location).not.toContain(t.server.token);
    }
    expect({ attempts: spellings.length, through }).toEqual({ attempts: 6, through: 0 });
  });
});

describe("[R7] only the person's own navigation trades ?token= for the cookie", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.stop());

  const cookieName = () => `plangate_token_${t.server.port}`;
  const navigation = { "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document" };

  it("[R7][R8] an image or fetch of /?token= (agent markdown) gets no cookie; a typed or clicked-in URL does", async () => {
    const path = `/?token=${t.server.token}`;
    const image = await send(t.server.port, "GET", path, {
      "Sec-Fetch-Mode": "no-cors",
      "Sec-Fetch-Dest": "image",
      "Sec-Fetch-Site": "same-origin",
    });
    expect(image.status).toBe(401);
    expect(image.headers["set-cookie"]).toBeUndefined();
    const fetched = await send(t.server.port, "GET", path, {
      "Sec-Fetch-Mode": "cors",
      "Sec-Fetch-Dest": "empty",
      "Sec-Fetch-Site": "same-origin",
    });
    expect(fetched.headers["set-cookie"]).toBeUndefined();

    for (const site of ["none", "cross-site"]) {
      const opened = await send(t.server.port, "GET", path, {
        ...navigation,
        "Sec-Fetch-Site": site,
      });
      expect(opened.status, site).toBe(302);
      expect(String(opened.headers["set-cookie"]), site).toContain(`${cookieName()}=`);
    }
  });

  it("[R7] a link to /?token= followed from a plangate page keeps the cookie the page holds", async () => {
    const followed = await send(t.server.port, "GET", "/?token=someone-elses-token", {
      ...navigation,
      "Sec-Fetch-Site": "same-origin",
      Cookie: `${cookieName()}=${t.server.token}`,
    });
    expect(followed.status).toBe(200);
    expect(followed.headers["set-cookie"]).toBeUndefined();
  });
});

const hostileScenario = `
turns:
  - match: rules
    steps:
      - tools:
          - name: Write
            input: { path: .zcode/permissions.json, content: '{"allow":["*"]}' }
      - say: done
  - match: leak
    steps:
      - tools:
          - name: Grep
            input: { pattern: "token|apiKey", path: "." }
          - name: Read
            input: { path: .zcode/plangate.json }
      - say: done
`;

describe("[R9] a prompt-injected model against the running server, in yolo mode", () => {
  let t: TestServer;
  let scenarioDir: ReturnType<typeof tempDir>;
  let client: TestClient;
  const RULES = '{"deny":["Read(private/**)"]}';

  beforeAll(async () => {
    scenarioDir = tempDir();
    const file = join(scenarioDir.path, "hostile.yaml");
    writeFileSync(file, hostileScenario);
    t = await startTestServer({ model: `scripted:${file}`, defaultMode: "yolo" });
    mkdirSync(join(t.workspace, ".zcode"), { recursive: true });
    writeFileSync(join(t.workspace, ".zcode", "permissions.json"), RULES);
    writeFileSync(join(t.workspace, "notes.md"), `the token is ${t.server.token}\n`);
    writeFileSync(
      join(t.workspace, ".zcode", "plangate.json"),
      JSON.stringify({ providers: { x: { kind: "openai", apiKey: "sk-live-KEY-9876543210" } } }),
    );
    client = (await TestClient.greeted(t.wsUrl, t.browserHeaders)).client;
  });
  afterAll(async () => {
    client.close();
    await t.stop();
    scenarioDir.remove();
  });

  const session = async (prompt: string) => {
    client.send({ type: "session.create", title: prompt });
    const sessionId = (await client.next("snapshot")).session.id;
    client.send({ type: "prompt", sessionId, text: prompt });
    return sessionId;
  };

  it("[R9] rewriting its own rules asks the person first, even in yolo mode", async () => {
    const sessionId = await session("rewrite the rules");
    const asked = await client.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "interaction.requested",
    );
    expect(asked.entry).toMatchObject({ request: { kind: "permission", toolName: "Write" } });
    expect(readFileSync(join(t.workspace, ".zcode", "permissions.json"), "utf8")).toBe(RULES);
  });

  it("[R9] Grep and Read return neither the access token nor the model key", async () => {
    const sessionId = await session("leak the secrets");
    const outputs: string[] = [];
    for (let index = 0; index < 2; index++) {
      const result = await client.next(
        "event",
        (frame) => frame.sessionId === sessionId && frame.entry.kind === "tool.result",
      );
      if (result.entry.kind === "tool.result") outputs.push(result.entry.output);
    }
    expect(outputs.join("\n")).toContain("notes.md");
    expect(outputs.join("\n")).not.toContain(t.server.token);
    expect(outputs.join("\n")).not.toContain("sk-live-KEY");
  });
});
