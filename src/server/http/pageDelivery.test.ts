import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
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

/** A test server over a build that `write` puts in a temp folder, for one describe block. */
function serveBuild(write: (dist: string) => void) {
  const served = {} as { server: TestServer["server"]; dist: string };
  let t: TestServer;
  let dist: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    dist = tempDir();
    served.dist = dist.path;
    write(dist.path);
    t = await startTestServer({ distDir: dist.path });
    served.server = t.server;
  });
  afterAll(async () => {
    await t.stop();
    dist.remove();
  });
  return served;
}

describe("the page as served", () => {
  const page = `<!doctype html><title>plangate</title>${"<link rel=modulepreload>".repeat(20)}`;
  const script = `console.log(${JSON.stringify("plangate ".repeat(500))});\n`;
  const t = serveBuild((dist) => {
    mkdirSync(join(dist, "assets"));
    writeFileSync(join(dist, "index.html"), page);
    writeFileSync(join(dist, "index.html.br"), brotliCompressSync(page));
    writeFileSync(join(dist, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    writeFileSync(join(dist, "assets", "app.js"), script);
    // What the build's precompress step writes (scripts/precompress.ts).
    writeFileSync(join(dist, "assets", "app.js.br"), brotliCompressSync(script));
    writeFileSync(join(dist, "assets", "app.js.gz"), gzipSync(script));
  });
  const cookie = () => ({ cookie: `plangate_token_${t.server.port}=${t.server.token}` });

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

/**
 * Occupies every thread of libuv's pool (file system calls run there): opening a FIFO for
 * reading waits until a writer opens it. `release` opens the writers.
 */
async function holdThreadPool(dir: string): Promise<{ release(): Promise<void> }> {
  const size = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  const fifos = Array.from({ length: size }, (_, index) => join(dir, `fifo-${index}`));
  for (const fifo of fifos) execFileSync("mkfifo", [fifo]);
  const readers = fifos.map((fifo) => open(fifo, "r"));
  return {
    async release() {
      for (const fifo of fifos) closeSync(openSync(fifo, "w"));
      for (const reader of await Promise.all(readers)) await reader.close();
    },
  };
}

describe("[W1] the page document", () => {
  const page = (version: string) =>
    `<!doctype html><title>plangate ${version}</title>${"<link rel=modulepreload>".repeat(20)}`;
  const build = (dist: string, version: string) => {
    writeFileSync(join(dist, "index.html"), page(version));
    writeFileSync(join(dist, "index.html.br"), brotliCompressSync(page(version)));
  };
  const t = serveBuild((dist) => build(dist, "one"));
  const headers = (extra: Record<string, string> = {}) => ({
    cookie: `plangate_token_${t.server.port}=${t.server.token}`,
    accept: "text/html",
    ...extra,
  });

  it("[W1][B5] is sent while every file-system thread is busy: it does not wait for a file read (issue 15: the page during a burst of agent calls)", async () => {
    // Once, so the page is in memory: the first request may read the build.
    expect((await get(t.server.port, "/", headers())).status).toBe(200);
    const pool = await holdThreadPool(t.dist);
    let released = false;
    // Without this a page read from disk would hang the test: it then fails, not hangs.
    const fallback = setTimeout(() => {
      released = true;
      void pool.release();
    }, 5_000);
    try {
      const response = await get(t.server.port, "/", headers());
      expect(released).toBe(false);
      expect(response.status).toBe(200);
      expect(response.body.toString()).toBe(page("one"));
    } finally {
      clearTimeout(fallback);
      if (!released) await pool.release();
    }
  });

  it("[W1] answers a repeat visit with 304 by its ETag, per encoding, and sends a rebuilt page at once", async () => {
    const first = await get(t.server.port, "/", headers({ "accept-encoding": "br" }));
    expect(first.headers["content-encoding"]).toBe("br");
    const etag = String(first.headers.etag);
    const again = await get(
      t.server.port,
      "/",
      headers({ "accept-encoding": "br", "if-none-match": etag }),
    );
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const plain = await get(t.server.port, "/", headers({ "if-none-match": etag }));
    expect(plain.status).toBe(200);
    expect(plain.headers.etag).not.toBe(etag);

    build(t.dist, "two, longer than the first");
    const rebuilt = await get(
      t.server.port,
      "/",
      headers({ "accept-encoding": "gzip, br", "if-none-match": etag }),
    );
    expect(rebuilt.status).toBe(200);
    expect(brotliDecompressSync(rebuilt.body).toString()).toBe(page("two, longer than the first"));
  });
});
