import { mkdirSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { tempDir } from "../testing/helpers.ts";
import { startTestServer, type TestServer } from "../testing/testServer.ts";

function get(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      });
      req.on("error", reject);
      req.end();
    },
  );
}

describe("the page as served", () => {
  let t: TestServer;
  let dist: ReturnType<typeof tempDir>;
  const page = `<!doctype html><title>plangate</title>${"<link rel=modulepreload>".repeat(20)}`;
  const script = `console.log(${JSON.stringify("plangate ".repeat(500))});\n`;
  const cookie = () => ({ cookie: `plangate_token_${t.server.port}=${t.server.token}` });

  beforeAll(async () => {
    dist = tempDir();
    mkdirSync(join(dist.path, "assets"));
    writeFileSync(join(dist.path, "index.html"), page);
    writeFileSync(join(dist.path, "index.html.br"), brotliCompressSync(page));
    writeFileSync(join(dist.path, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    writeFileSync(join(dist.path, "assets", "app.js"), script);
    // What the build's precompress step writes (scripts/precompress.ts).
    writeFileSync(join(dist.path, "assets", "app.js.br"), brotliCompressSync(script));
    writeFileSync(join(dist.path, "assets", "app.js.gz"), gzipSync(script));
    t = await startTestServer({ distDir: dist.path });
  });
  afterAll(async () => {
    await t.stop();
    dist.remove();
  });

  it("[W8] /access answers 204 to a good cookie and 401 to a missing or stale one, so a tab can tell a refused token from a server that is down", async () => {
    expect((await get(t.server.port, "/access", cookie())).status).toBe(204);
    expect((await get(t.server.port, "/access")).status).toBe(401);
    const stale = { cookie: `plangate_token_${t.server.port}=an-old-rotated-token` };
    expect([401, 403]).toContain((await get(t.server.port, "/access", stale)).status);
  });

  it("sends the build's precompressed brotli or gzip copy, by what the browser accepts", async () => {
    const br = await get(t.server.port, "/assets/app.js", {
      ...cookie(),
      "accept-encoding": "gzip, br",
    });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.body.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(br.body).toString()).toBe(script);

    const gz = await get(t.server.port, "/assets/app.js", {
      ...cookie(),
      "accept-encoding": "gzip",
    });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(script);

    const plain = await get(t.server.port, "/assets/app.js", cookie());
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    for (const response of [br, gz, plain]) {
      expect(response.headers.vary).toMatch(/accept-encoding/i);
    }
  });

  it("[W1] sends the page itself as its brotli copy too, at / and at a client-side route (issue 15: before the first card)", async () => {
    for (const path of ["/", "/s/some-session"]) {
      const response = await get(t.server.port, path, {
        ...cookie(),
        accept: "text/html",
        "accept-encoding": "gzip, br",
      });
      expect(response.status).toBe(200);
      expect(response.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(response.body).toString()).toBe(page);
    }
  });

  it("lets a browser keep hashed assets without asking again, and checks the page and the rest on every load", async () => {
    const asset = await get(t.server.port, "/assets/app.js", {
      ...cookie(),
      "accept-encoding": "br",
    });
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const icon = await get(t.server.port, "/favicon.svg", cookie());
    expect(icon.headers["cache-control"]).toBe("no-cache");
    const page = await get(t.server.port, "/s/some-session", {
      ...cookie(),
      accept: "text/html",
    });
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toBe("no-cache");
  });

  it("serves a favicon, so no page load logs a 404", async () => {
    const icon = await get(t.server.port, "/favicon.svg", cookie());
    expect(icon.status).toBe(200);
    expect(String(icon.headers["content-type"])).toContain("image/svg+xml");
  });
});
