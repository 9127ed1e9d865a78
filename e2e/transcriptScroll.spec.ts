import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { ShellPage } from "./pages/shell.ts";

/** How far the transcript's scroller is from its bottom, in px. */
function distanceFromBottom(scroller: Locator): Promise<number> {
  return scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
}

/** Two frames: whatever the page does after a change (observers, scroll) has run and painted. */
function afterTwoFrames(scroller: Locator): Promise<void> {
  return scroller.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
      ),
  );
}

test("[W1] the transcript follows new messages while the reader is at the bottom, and stays put once they scroll up", async ({
  page,
  server,
}) => {
  await page.setViewportSize({ width: 900, height: 520 });
  const shell = new ShellPage(page);
  const scroller = shell.transcript.locator("xpath=..");
  await shell.startSession(server.url, "What is in this project?");
  await expect(
    shell.assistantMessages.last().getByRole("heading", { name: "What I found" }),
  ).toBeVisible();
  await shell.send("hello");
  await expect(shell.assistantMessages).toHaveCount(4);
  expect(await scroller.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(200);

  // At the bottom, every reply keeps the newest line in view.
  await expect.poll(() => distanceFromBottom(scroller)).toBeLessThan(2);

  // Scrolled up: a new reply does not pull the reader down.
  await scroller.evaluate((el) => {
    el.scrollTop = 0;
  });
  await afterTwoFrames(scroller);
  await shell.send("hello again");
  await expect(shell.assistantMessages).toHaveCount(5);
  await afterTwoFrames(scroller);
  expect(await scroller.evaluate((el) => el.scrollTop)).toBe(0);

  // Back at the bottom, it follows again.
  await scroller.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await afterTwoFrames(scroller);
  await shell.send("hello once more");
  await expect(shell.assistantMessages).toHaveCount(6);
  await expect.poll(() => distanceFromBottom(scroller)).toBeLessThan(2);
});
