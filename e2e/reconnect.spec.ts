import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import Database from "better-sqlite3";
import common from "../locales/en/common.json" with { type: "json" };
import { expect, test } from "./fixtures.ts";
import { QuestionsPage } from "./pages/questions.ts";
import { ShellPage } from "./pages/shell.ts";
import type { PlangateServer } from "./server.ts";

const REVIEW = "Review this implementation plan";

function sessionIdOf(page: Page): string {
  const match = /#\/s\/(.+)$/.exec(page.url());
  if (!match?.[1]) throw new Error(`no session in ${page.url()}`);
  return decodeURIComponent(match[1]);
}

/** How many entries of a kind the session's log holds, read from the database itself. */
function countEntries(server: PlangateServer, sessionId: string, kind: string): number {
  const db = new Database(server.dbPath, { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare("SELECT count(*) AS n FROM entries WHERE session_id = ? AND kind = ?")
      .get(sessionId, kind) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

async function waitOffline(page: Page): Promise<void> {
  await expect(page.getByTestId("connection-status")).not.toHaveAttribute("data-status", "open");
}

test.describe("across disconnects and restarts", () => {
  test.describe("with a plan to review", () => {
    test.use({ scenario: "planReview" });

    test("[W7] Approve clicked while the server is down reaches the agent exactly once after the restart, and the card never stays locked", async ({
      page,
      server,
    }) => {
      const shell = new ShellPage(page);
      const questions = new QuestionsPage(page);
      await shell.open(server.url);
      await shell.newSession();
      await shell.command("/plan cache the price lookups");
      const card = questions.planCard(REVIEW);
      await expect(card).toBeVisible();
      const sessionId = sessionIdOf(page);

      const port = server.port;
      await server.stop("SIGKILL");
      await waitOffline(page);
      await expect(card.getByTestId("offline-hint")).toHaveText(common["outbox.offline"]);
      const approve = questions.planButton(card, "approve");
      await expect(approve).toBeEnabled();
      await approve.click();
      await expect(card.getByTestId("offline-hint")).toHaveText(common["outbox.held"]);
      await expect(approve).toBeDisabled();

      // The default start reads the workspace's stored token: the open tab gets back in.
      await server.start(port);
      await shell.waitConnected();
      await expect(card).toHaveCount(0);
      const decided = page.getByTestId("entry-plan-decided");
      await expect(decided).toHaveCount(1);
      await expect(decided).toHaveAttribute("data-outcome", "approved");
      await expect(
        shell.assistantMessages.last().getByRole("heading", { name: "Approved" }),
      ).toBeVisible();
      await expect(page.getByTestId("composer-stop")).toHaveCount(0);

      expect(countEntries(server, sessionId, "interaction.resolved")).toBe(1);
      expect(countEntries(server, sessionId, "plan.approved")).toBe(1);
      const planFile = join(
        server.workspace,
        ".zcode",
        "plans",
        `plan-${sessionId.replace(/[^A-Za-z0-9_-]/g, "-")}.md`,
      );
      expect(readFileSync(planFile, "utf8")).toContain("# Plan: cache the price lookups");
    });
  });

  test("[W7] a message sent while offline is held, shown as waiting, and sent once on reconnect", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    await shell.open(server.url);
    await shell.newSession();
    const sessionId = sessionIdOf(page);
    const port = server.port;
    await server.stop("SIGKILL");
    await waitOffline(page);

    await shell.composer.fill("hello");
    await shell.composer.press("Enter");
    await expect(shell.composer).toHaveValue("");
    await expect(page.getByTestId("held-messages")).toContainText("hello");

    await server.start(port);
    await shell.waitConnected();
    await expect(page.getByTestId("held-messages")).toHaveCount(0);
    await expect(shell.userMessages.filter({ hasText: "hello" })).toHaveCount(1);
    await expect(shell.assistantMessages.first()).toBeVisible();
    expect(countEntries(server, sessionId, "user.message")).toBe(1);
  });

  test("[W8] a restart with a rotated token turns the open tab into the 'open the new URL' message within 10 s", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    await shell.open(server.url);
    const oldUrl = server.url;

    await server.restart("SIGKILL", ["--rotate-token"]);
    expect(server.url).not.toBe(oldUrl);
    const refused = page.getByTestId("access-refused");
    await expect(refused).toBeVisible({ timeout: 10_000 });
    await expect(refused).toContainText(common["connection.refusedTitle"]);
    await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "refused");

    // The new URL works, and the next plain restart keeps it.
    await shell.open(server.url);
    const rotated = server.url;
    await server.restart("SIGKILL");
    expect(server.url).toBe(rotated);
    await shell.waitConnected();
  });

  test("[W14] the message box's draft survives a reload and shows in another tab", async ({
    page,
    context,
    server,
  }) => {
    const shell = new ShellPage(page);
    await shell.open(server.url);
    await shell.newSession();
    await shell.composer.fill("half a thought about caching");

    const other = new ShellPage(await context.newPage());
    await other.open(page.url());
    await expect(other.composer).toHaveValue("half a thought about caching");

    await page.reload();
    await shell.waitConnected();
    await expect(shell.composer).toHaveValue("half a thought about caching");

    await shell.composer.press("Enter");
    await expect(shell.userMessages.filter({ hasText: "half a thought" })).toHaveCount(1);
    await page.reload();
    await shell.waitConnected();
    await expect(shell.composer).toHaveValue("");
  });

  test("[W15] a session renamed in one tab is renamed in the other; deleting asks first and drops it from both", async ({
    page,
    context,
    server,
  }) => {
    const shell = new ShellPage(page);
    await shell.open(server.url);
    await shell.newSession();
    await shell.send("hello");
    const other = await context.newPage();
    const otherShell = new ShellPage(other);
    await otherShell.open(page.url());

    const row = page.getByTestId("session-item");
    await row.hover();
    await page.getByTestId("session-rename").click();
    const input = page.getByTestId("session-rename-input");
    await expect(input).toBeFocused();
    await input.fill("Price cache");
    await input.press("Enter");
    await expect(row).toContainText("Price cache");
    await expect(other.getByTestId("session-item")).toContainText("Price cache");

    await other.getByTestId("session-item").hover();
    await other.getByTestId("session-delete").click();
    const confirm = other.getByTestId("session-delete-confirm");
    await expect(confirm).toContainText("Price cache");
    await expect(other.getByTestId("session-item")).toHaveCount(0);
    await other.getByTestId("session-delete-confirm-button").click();

    await expect(other.getByTestId("session-delete-confirm")).toHaveCount(0);
    await expect(page.getByTestId("session-item")).toHaveCount(0);
    await expect(other.getByTestId("session-item")).toHaveCount(0);
    await expect(shell.composer).toHaveCount(0);
    await expect(page.getByText(common["empty.noSessionsTitle"])).toBeVisible();
  });
});
