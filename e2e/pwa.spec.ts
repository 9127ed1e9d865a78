import { expect, test } from "./fixtures.ts";
import { ShellPage } from "./pages/shell.ts";

test.use({ scenario: "inbox", serverArgs: ["--no-build"] });

test("[U2] the app installs: a manifest with an SVG icon, and a service worker that keeps the app shell and no API or socket traffic", async ({
  page,
  server,
}) => {
  const shell = new ShellPage(page);
  await shell.open(server.url);

  // The manifest as the browser itself loads it (a <link> fetch, not the page's fetch).
  const cdp = await page.context().newCDPSession(page);
  const loaded = await cdp.send("Page.getAppManifest");
  expect(loaded.errors).toEqual([]);
  expect(loaded.data, "the browser loaded no manifest").toBeTruthy();
  const manifest = JSON.parse(loaded.data ?? "null") as Record<string, unknown> | null;
  expect(manifest).toMatchObject({ name: "plangate", display: "standalone" });
  expect(manifest?.icons).toEqual(
    expect.arrayContaining([expect.objectContaining({ type: "image/svg+xml" })]),
  );

  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toBe(`${server.origin}/`);
  const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
  // Playwright's contexts are off the record, which alone would keep a browser from installing.
  const blocking = installabilityErrors.filter((error) => error.errorId !== "in-incognito");
  expect(blocking).toEqual([]);

  // Controlled from the next load on: socket traffic, a session and an MCP request happen.
  await page.reload();
  await shell.waitConnected();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await shell.newSession();
  await shell.send("Ask me a question");
  await expect(page.getByRole("radio", { name: /Red/ })).toBeVisible();
  const mcpStatus = await page.evaluate(
    async () => (await fetch("/mcp", { method: "GET" })).status,
  );
  expect(mcpStatus).toBeGreaterThanOrEqual(400);
  await page.evaluate(() => fetch("/api/anything").catch(() => undefined));

  const kept = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys())
        urls.push(new URL(request.url).pathname + new URL(request.url).search);
    }
    return urls;
  });
  expect(kept).toContain("/");
  expect(kept.some((path) => path.startsWith("/assets/") && path.endsWith(".js"))).toBe(true);
  for (const path of kept) {
    expect(
      path === "/" ||
        path.startsWith("/assets/") ||
        path === "/manifest.webmanifest" ||
        path === "/icon.svg",
    ).toBe(true);
    expect(path).not.toMatch(/^\/(ws|mcp|api)|token=/);
  }

  // The kept shell opens the app while the server is unreachable.
  await page.context().setOffline(true);
  await page.reload();
  await expect(page.getByTestId("inbox-link")).toBeVisible();
  await page.context().setOffline(false);
});
