import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { ShellPage } from "./pages/shell.ts";

test.use({ scenario: "hostileMarkdown", serverArgs: ["--no-build"] });

/** Every CSP violation the page reports, and every request it makes to another origin. */
async function watch(page: Page, origin: () => string) {
  const violations: string[] = [];
  const foreignRequests: string[] = [];
  await page.exposeFunction("reportViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { reportViolation: (t: string) => void }).reportViolation(
        `${event.violatedDirective} ${event.blockedURI}`,
      );
    });
  });
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith("http") && url.origin !== origin()) foreignRequests.push(url.href);
  });
  return { violations, foreignRequests };
}

test("[R8] the page runs under its CSP, and remote images in agent markdown are links that load nothing", async ({
  page,
  server,
}) => {
  const seen = await watch(page, () => server.origin);
  const shell = new ShellPage(page);
  await shell.startSession(server.url, "Show me the report");

  const reply = shell.assistantMessages.last();
  await expect(reply.getByRole("heading", { name: "Report" })).toBeVisible();
  const pixel = reply.getByRole("link", { name: "tracking pixel" });
  await expect(pixel).toHaveAttribute("href", "https://evil.example/pixel.png?session=secret");
  await expect(reply.getByRole("link", { name: "badge" })).toBeVisible();
  await expect(reply.locator("img")).toHaveCount(0);

  expect(seen.foreignRequests).toEqual([]);
  expect(seen.violations).toEqual([]);
});

test("[R8] a page on another port cannot frame plangate, so Approve cannot be clickjacked", async ({
  page,
  server,
}) => {
  // The attacker: same host, another port, so the browser sends plangate's SameSite cookie.
  const attacker = createServer((_request, response) => {
    response.setHeader("content-type", "text/html");
    response.end(`<iframe id="victim" src="${server.origin}/" width="800" height="600"></iframe>`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
  try {
    await page.goto(server.url);
    await new ShellPage(page).waitConnected();
    const { port } = attacker.address() as AddressInfo;
    await page.goto(`http://127.0.0.1:${port}/`);
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    expect(frame).toBeDefined();
    await expect.poll(() => frame?.url()).toMatch(/^chrome-error:/);
    expect(await frame?.getByTestId("composer-input").count()).toBe(0);
  } finally {
    attacker.close();
  }
});
