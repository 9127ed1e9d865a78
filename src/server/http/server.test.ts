import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { startTestServer, type TestServer } from "../testing/testServer.ts";
import { TestClient } from "../testing/wsClient.ts";

/** A raw HTTP GET, so the Host header can be anything. */
function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers }, (res) => {
      let body = "";
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("[R1] access control", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.stop());

  it("[R1] listens on 127.0.0.1 and prints a URL with the token", () => {
    expect(t.server.url).toBe(`http://127.0.0.1:${t.server.port}/?token=${t.server.token}`);
  });

  it("[R1] trades the right token for an HttpOnly SameSite=Strict cookie and strips it from the URL", async () => {
    const res = await get(t.server.port, `/?token=${t.server.token}&x=1`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/?x=1");
    const cookie = String(res.headers["set-cookie"]);
    expect(cookie).toContain(`plangate_token_${t.server.port}=${t.server.token}`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    const page = await get(t.server.port, "/", {
      cookie: `other=1; plangate_token_${t.server.port}=${t.server.token}`,
    });
    expect(page.status).toBe(200);
    expect(page.body).toContain("<title>plangate</title>");
    const asset = await get(t.server.port, "/assets/app.js", {
      cookie: `plangate_token_${t.server.port}=${t.server.token}`,
    });
    expect(asset.body).toBe("console.log(1)");
  });

  it("[R1] answers a request without a token with a 401 page pointing to the terminal", async () => {
    for (const path of ["/", "/assets/app.js", "/sessions/x"]) {
      const res = await get(t.server.port, path);
      expect(res.status).toBe(401);
      expect(res.body).toMatch(/printed in the terminal/);
    }
    expect(
      (await get(t.server.port, "/", { cookie: `plangate_token_${t.server.port}=stale` })).status,
    ).toBe(401);
  });

  it("[R1] answers a wrong token with 403", async () => {
    const res = await get(t.server.port, "/?token=nope");
    expect(res.status).toBe(403);
    expect(res.headers["set-cookie"]).toBeUndefined();
  });

  it("[R1] refuses a foreign Host (DNS rebinding) even with the token", async () => {
    const res = await get(t.server.port, "/", {
      host: `evil.example:${t.server.port}`,
      cookie: `plangate_token_${t.server.port}=${t.server.token}`,
    });
    expect(res.status).toBe(403);
  });

  it("serves the page for client-side routes (SPA fallback)", async () => {
    const res = await get(t.server.port, "/some/route", {
      cookie: `plangate_token_${t.server.port}=${t.server.token}`,
      accept: "text/html",
    });
    expect(res.status).toBe(200);
    expect(res.body).toContain("plangate");
  });

  it("[R1] refuses the WebSocket without a token, with a wrong one, from a foreign Origin or Host", async () => {
    await expect(TestClient.open(t.wsUrl, { origin: t.origin })).rejects.toThrow("401");
    await expect(
      TestClient.open(t.wsUrl, {
        origin: t.origin,
        cookie: `plangate_token_${t.server.port}=wrong`,
      }),
    ).rejects.toThrow("403");
    await expect(
      TestClient.open(t.wsUrl, { ...t.browserHeaders, origin: "http://evil.example" }),
    ).rejects.toThrow("403");
    await expect(
      TestClient.open(t.wsUrl, {
        ...t.browserHeaders,
        origin: `http://127.0.0.1:${t.server.port + 1}`,
      }),
    ).rejects.toThrow("403");
    await expect(
      TestClient.open(t.wsUrl, { ...t.browserHeaders, host: `rebound.example:${t.server.port}` }),
    ).rejects.toThrow("403");
  });

  it("[R1] accepts the WebSocket with the cookie from the page, or ?token= without an Origin", async () => {
    const browser = await TestClient.open(t.wsUrl, t.browserHeaders);
    const localhostPage = await TestClient.open(t.wsUrl.replace("127.0.0.1", "localhost"), {
      origin: `http://localhost:${t.server.port}`,
      cookie: `plangate_token_${t.server.port}=${t.server.token}`,
    });
    const tool = await TestClient.open(`${t.wsUrl}?token=${t.server.token}`);
    for (const client of [browser, localhostPage, tool]) client.close();
  });
});

describe("without a built page", () => {
  it("explains how to build it", async () => {
    const t = await startTestServer({ distDir: "/nonexistent-plangate-dist" });
    try {
      const res = await get(t.server.port, "/", {
        cookie: `plangate_token_${t.server.port}=${t.server.token}`,
      });
      expect(res.status).toBe(503);
      expect(res.body).toMatch(/npm run build/);
    } finally {
      await t.stop();
    }
  });
});

describe("[R12] a burst of connections", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.stop());

  it("[R12] connections that arrive while the server is busy wait in its accept queue, not in the client's SYN retries", async () => {
    const count = 1_500;
    const sockets: Socket[] = [];
    const connected: number[] = [];
    // Every connect() is issued while this loop holds the event loop, so none can be accepted
    // yet: what the kernel keeps meanwhile is the listen backlog (Node's default: 511).
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      const socket = connect({ host: "127.0.0.1", port: t.server.port });
      socket.on("connect", () => connected.push(performance.now() - started));
      socket.on("error", () => {});
      sockets.push(socket);
    }
    // A SYN the kernel dropped is sent again after a second: well after this.
    await new Promise((resolve) => setTimeout(resolve, 700));
    for (const socket of sockets) socket.destroy();
    expect(connected.length).toBe(count);
  });
});
