import { realpathSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { startLoopbackPushService } from "../push/testing/loopbackPushService.ts";
import { tempDir } from "../testing/helpers.ts";
import { useScenarioServer } from "../testing/scenarioServer.ts";
import { WRITE_NOTES_TURN } from "../testing/scenarioTurns.ts";
import { TestClient } from "../testing/wsClient.ts";
import { createServer } from "./server.ts";

const PUBLIC = "https://laptop.tailnet.ts.net";

const scenario = `
turns:${WRITE_NOTES_TURN}
`;

function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("[R1] --public-url: the address a phone opens, and nothing else", () => {
  const fixture = useScenarioServer(scenario, {
    publicUrl: new URL(PUBLIC),
    allowLoopbackPushEndpoints: true,
  });
  const { server } = fixture;
  const cookie = () => `plangate_token_${server().server.port}=${server().server.token}`;

  it("[R1] the public URL's host gets the page and a Secure cookie; the loopback names still work", async () => {
    const { port, token } = server().server;
    expect(server().server.publicUrl).toBe(`${PUBLIC}/?token=${token}`);
    const viaPublic = await send(port, "GET", `/?token=${token}`, {
      host: "laptop.tailnet.ts.net",
    });
    expect(viaPublic.status).toBe(302);
    expect(String(viaPublic.headers["set-cookie"])).toMatch(/; Secure$/);
    const viaLoopback = await send(port, "GET", `/?token=${token}`, { host: `127.0.0.1:${port}` });
    expect(viaLoopback.status).toBe(302);
    expect(String(viaLoopback.headers["set-cookie"])).not.toContain("Secure");
    expect(
      (await send(port, "GET", "/", { host: `localhost:${port}`, cookie: cookie() })).status,
    ).toBe(200);
  });

  it("[R1] the socket opens from the public origin, and from the loopback page", async () => {
    const viaPublic = fixture.track(
      await TestClient.open(server().wsUrl, {
        host: "laptop.tailnet.ts.net",
        origin: PUBLIC,
        cookie: cookie(),
      }),
    );
    viaPublic.send({ type: "hello", protocol: 1 });
    expect(viaPublic.closed).toBeUndefined();
    fixture.track(await TestClient.open(server().wsUrl, server().browserHeaders));
  });

  it("[R1] forged hosts and origins next to the public URL are still refused", async () => {
    const { port } = server().server;
    for (const host of [
      "laptop.tailnet.ts.net.evil.example",
      "laptop.tailnet.ts.net:444",
      "evil.example",
      "tailnet.ts.net",
      `laptop.tailnet.ts.net@evil.example`,
    ]) {
      expect((await send(port, "GET", "/", { host, cookie: cookie() })).status, host).toBe(403);
    }
    for (const origin of [
      "http://laptop.tailnet.ts.net",
      "https://laptop.tailnet.ts.net:444",
      "https://evil.tailnet.ts.net",
      "https://laptop.tailnet.ts.net.evil.example",
      "null",
    ]) {
      await expect(
        TestClient.open(server().wsUrl, {
          host: "laptop.tailnet.ts.net",
          origin,
          cookie: cookie(),
        }),
        origin,
      ).rejects.toThrow(/403/);
      const post = await send(port, "POST", "/push/subscribe", {
        host: "laptop.tailnet.ts.net",
        origin,
        cookie: cookie(),
      });
      expect(post.status, origin).toBe(403);
    }
  });

  it("[R1][U3] a notification opens the public URL", async () => {
    const service = await startLoopbackPushService();
    try {
      const subscribed = await fetch(`${server().origin}/push/subscribe`, {
        method: "POST",
        headers: { ...server().browserHeaders, "content-type": "application/json" },
        body: JSON.stringify(service.subscription),
      });
      expect(subscribed.status).toBe(201);
      const { client } = await fixture.greeted();
      client.send({ type: "session.create", title: "Notes" });
      const sessionId = (await client.next("snapshot")).session.id;
      client.send({ type: "prompt", sessionId, text: "please write notes" });
      const push = await service.next(1);
      expect(push.payload).toMatchObject({ url: `${PUBLIC}/#/inbox` });
    } finally {
      await service.close();
    }
  });
});

describe("[R1] binding beyond loopback", () => {
  it("[R1] a server asked for 0.0.0.0 without allowRemote refuses to start and says why", async () => {
    const dir = tempDir();
    try {
      const workspace = realpathSync(dir.path);
      await expect(
        createServer({ workspace, dbPath: join(workspace, "db.sqlite"), host: "0.0.0.0" }),
      ).rejects.toThrow(/--allow-remote/);
    } finally {
      dir.remove();
    }
  });
});
