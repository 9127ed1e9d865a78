import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { connectAgent } from "./mcpAgent.ts";
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

  // Scrolled up by the reader: a new reply does not pull them down.
  await scroller.hover();
  await page.mouse.wheel(0, -5000);
  await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBe(0);
  await afterTwoFrames(scroller);
  await shell.send("hello again");
  await expect(shell.assistantMessages).toHaveCount(5);
  await afterTwoFrames(scroller);
  expect(await scroller.evaluate((el) => el.scrollTop)).toBe(0);

  // Back at the bottom, it follows again.
  await page.mouse.wheel(0, 5000);
  await expect.poll(() => distanceFromBottom(scroller)).toBeLessThan(2);
  await afterTwoFrames(scroller);
  await shell.send("hello once more");
  await expect(shell.assistantMessages).toHaveCount(6);
  await expect.poll(() => distanceFromBottom(scroller)).toBeLessThan(2);
});

/** One single-choice question from the agent over MCP; settles with the user's answer. */
function askOne(agent: Client, question: string, labels: [string, string]) {
  return agent.callTool({
    name: "ask_user_question",
    arguments: {
      questions: [
        {
          question,
          header: "Choice",
          multiSelect: false,
          options: labels.map((label) => ({ label, description: `pick ${label}` })),
        },
      ],
    },
  });
}

test("[W1] on a phone, cards coming and going under the transcript do not let go of its bottom; only the reader scrolling up does", async ({
  page,
  server,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const shell = new ShellPage(page);
  await shell.open(server.url);
  const scroller = shell.transcript.locator("xpath=..");
  const agent = await connectAgent(server, "phone-agent");
  try {
    // Each card shrinks the scroller and each answer grows it past its content again: the
    // browser clamps the offset to 0 then, and that scroll must not read as the reader's.
    for (let i = 0; i < 10; i++) {
      const call = askOne(agent, `Which colour for part ${i}?`, ["Red", "Blue"]);
      if (i === 0) {
        await page.getByTestId("session-item").filter({ hasText: "phone-agent" }).click();
      }
      await page.getByRole("radio", { name: /Red/ }).click();
      await page.getByRole("button", { name: "Submit" }).click();
      // The next card asked at once, as an agent does: it can come in the frame the clamp's
      // scroll event is read in.
      await call;
    }
    // More than the "near the bottom" slack above the fold, so scrolling up is away from it.
    expect(await scroller.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(100);
    await expect.poll(() => distanceFromBottom(scroller)).toBeLessThan(2);

    // The reader scrolls up: the next card leaves them where they are.
    await scroller.hover();
    await page.mouse.wheel(0, -5000);
    await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBe(0);
    const next = askOne(agent, "One more?", ["Yes", "No"]);
    await page.getByRole("radio", { name: /Yes/ }).click();
    await page.getByRole("button", { name: "Submit" }).click();
    await next;
    await afterTwoFrames(scroller);
    expect(await scroller.evaluate((el) => el.scrollTop)).toBe(0);
  } finally {
    await agent.close();
  }
});
