import { expect, test } from "./fixtures.ts";
import { ShellPage } from "./pages/shell.ts";

test("[W1] a prompt gets the scripted reply as markdown, and a reload shows the same transcript", async ({
  page,
  server,
}) => {
  const shell = new ShellPage(page);
  await shell.startSession(server.url, "What is in this project?");

  const reply = shell.assistantMessages.last();
  await expect(reply.getByRole("heading", { name: "What I found" })).toBeVisible();
  await expect(reply.getByRole("table")).toBeVisible();
  await expect(shell.toolCalls.first()).toBeVisible();
  const before = await shell.transcript.textContent();

  await page.reload();
  await shell.waitConnected();
  await expect(
    shell.assistantMessages.last().getByRole("heading", { name: "What I found" }),
  ).toBeVisible();
  expect(await shell.transcript.textContent()).toBe(before);
});

test("[R1] the page and the WebSocket are refused without the token", async ({ page, server }) => {
  const response = await page.goto(server.origin);
  expect(response?.status()).toBe(401);
  const wrong = await page.goto(`${server.origin}/?token=wrong`);
  expect(wrong?.status()).toBe(403);
});

test("[W1][I5] once the first screen is up, the plan card's code is fetched at once, not behind the page's other deferred code", async ({
  page,
  server,
}) => {
  // Held: the chunk with the rest of the after-first-screen work (pages, fonts, the worker).
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/afterFirstScreenWork-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const planCode = page.waitForRequest(/\/assets\/PlanReviewPanel-[^/]+\.js$/, {
    timeout: 10_000,
  });
  await new ShellPage(page).open(server.url);
  // A plan that lands just after the page opens waits only for its own card's code.
  await planCode;
  release();
});

test("[W1] New session pressed again, or in a second tab, opens the empty session instead of piling up more", async ({
  page,
  server,
  context,
}) => {
  const shell = new ShellPage(page);
  const sessions = page.getByTestId("session-item");
  const newSession = page.getByTestId("new-session");
  const current = sessions.and(page.locator('[aria-current="page"]'));
  await shell.startSession(server.url, "hello");
  const busy = sessions.and(
    page.locator(`[data-session-id="${await current.getAttribute("data-session-id")}"]`),
  );

  await shell.newSession();
  const emptyId = await current.getAttribute("data-session-id");
  await newSession.click();
  await newSession.click();
  await busy.click();
  await expect(shell.userMessages).toHaveCount(1);
  await newSession.click();
  await expect(current).toHaveAttribute("data-session-id", emptyId ?? "");
  await expect(shell.userMessages).toHaveCount(0);

  const other = new ShellPage(await context.newPage());
  await other.open(server.url);
  await other.page.getByTestId("new-session").click();
  await expect(
    other.page.getByTestId("session-item").and(other.page.locator('[aria-current="page"]')),
  ).toHaveAttribute("data-session-id", emptyId ?? "");
  await expect(sessions).toHaveCount(2);
  await expect(other.page.getByTestId("session-item")).toHaveCount(2);
});
