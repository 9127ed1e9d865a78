import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import common from "../locales/en/common.json" with { type: "json" };
import { expect, test } from "./fixtures.ts";
import { ShellPage } from "./pages/shell.ts";
import type { PlangateServer } from "./server.ts";

test.use({ scenario: "inbox", serverArgs: ["--no-build"] });

const root = resolve(import.meta.dirname, "..");

/** `npm start -- token …` beside the running server, as a person types it. */
function tokenCommand(server: PlangateServer, ...args: string[]): string {
  return execFileSync(
    process.execPath,
    [
      join(root, "scripts/start.cjs"),
      "token",
      ...args,
      "--workspace",
      server.workspace,
      "--db",
      server.dbPath,
    ],
    { cwd: root, encoding: "utf8" },
  );
}

test("[S3][U4] a person's token: her answer shows her name in the transcript; revoking it turns her tab away at once while the owner's stays connected", async ({
  page,
  browser,
  server,
}) => {
  const issued = tokenCommand(server, "issue", "Alice");
  const token = /^([0-9a-f]{64})$/m.exec(issued)?.[1] ?? "";
  expect(token).not.toBe("");

  const alice = new ShellPage(page);
  await alice.startSession(`${server.origin}/?token=${token}`, "Ask me a question");
  await page.getByRole("radio", { name: /Red/ }).check();
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByTestId("answered-on")).toHaveText(/by Alice on Chrome on Linux/);

  const ownerContext = await browser.newContext();
  try {
    const ownerPage = await ownerContext.newPage();
    const owner = new ShellPage(ownerPage);
    await owner.open(server.url);

    tokenCommand(server, "revoke", "Alice");
    const refused = page.getByTestId("access-refused");
    await expect(refused).toBeVisible({ timeout: 10_000 });
    await expect(refused).toContainText(common["connection.refusedTitle"]);
    await expect(ownerPage.getByTestId("connection-status")).toHaveAttribute("data-status", "open");
    await expect(ownerPage.getByTestId("session-item")).toHaveCount(1);
  } finally {
    await ownerContext.close();
  }
});
