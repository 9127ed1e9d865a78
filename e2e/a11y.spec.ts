import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { connectAgent } from "./mcpAgent.ts";
import { modelEcho, QuestionsPage } from "./pages/questions.ts";
import { ShellPage } from "./pages/shell.ts";

const REVIEW = "Review this implementation plan";

test.use({ serverArgs: ["--no-build"] });

/** W5: axe over the whole page as it stands; a violation list reads better than a count. */
async function expectNoViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const found = results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    targets: violation.nodes.map((node) => node.target.join(" ")),
  }));
  expect(found).toEqual([]);
}

/** Presses Tab (or Shift+Tab) until the target has focus; fails after `limit` presses. */
async function tabTo(page: Page, target: Locator, key = "Tab", limit = 60): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}

test.describe("shell", () => {
  test.use({ scenario: "demo" });

  test("[W5] the shell with a transcript has no axe violations", async ({ page, server }) => {
    const shell = new ShellPage(page);
    await shell.startSession(server.url, "What is in this project?");
    await expect(
      shell.assistantMessages.last().getByRole("heading", { name: "What I found" }),
    ).toBeVisible();
    await expectNoViolations(page);
  });

  test("[W5] the shell at 390×844 has no axe violations: the model picker keeps its name with its label out of sight", async ({
    page,
    server,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const shell = new ShellPage(page);
    await shell.startSession(server.url, "What is in this project?");
    await expect(
      shell.assistantMessages.last().getByRole("heading", { name: "What I found" }),
    ).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Model" })).toBeVisible();
    await expectNoViolations(page);
  });

  test("[W5] the skip link moves focus to the main area and keeps the open session", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    await shell.startSession(server.url, "What is in this project?");
    await expect(
      shell.assistantMessages.last().getByRole("heading", { name: "What I found" }),
    ).toBeVisible();
    const route = new URL(page.url()).hash;
    expect(route).toMatch(/^#\/s\//);
    const skip = page.getByRole("link", { name: "Skip to the main content" });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, skip);
    await page.keyboard.press("Enter");
    await expect(page.locator("main#main")).toBeFocused();
    expect(new URL(page.url()).hash).toBe(route);
    await expect(shell.assistantMessages.last()).toBeVisible();
  });

  test("[W5] the settings page has no axe violations", async ({ page, server }) => {
    const shell = new ShellPage(page);
    await shell.open(server.url);
    await page.getByTestId("settings-button").click();
    await expect(page.getByTestId("settings-page")).toBeVisible();
    await expectNoViolations(page);
  });
});

test.describe("questions", () => {
  test.use({ scenario: "questions" });

  test("[W5] the waiting generic flow has no axe violations", async ({ page, server }) => {
    const shell = new ShellPage(page);
    const questions = new QuestionsPage(page);
    await shell.startSession(server.url, "Ask me a batch of questions");
    await questions.waitForFlow();
    await expectNoViolations(page);
    await questions.nextPage.click();
    await expect(questions.pager(2, 3)).toBeVisible();
    await expectNoViolations(page);
  });

  test("[W5][Q6][W10] the generic flow is answered with Tab, digits and Enter alone", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    const questions = new QuestionsPage(page);
    await shell.startSession(server.url, "Ask me a batch of questions");
    await questions.waitForFlow();

    // The card arrived over an empty message box, so it took focus: the keyboard is there at once.
    await expect(questions.flow).toBeFocused();
    await tabTo(page, questions.option("Postgres (Recommended)"));
    await page.keyboard.press("2");
    await expect(questions.option("SQLite")).toBeChecked();
    await page.keyboard.press("Enter");

    await expect(questions.pager(2, 3)).toBeVisible();
    await expect(questions.option("Search")).toBeFocused();
    await page.keyboard.press("1");
    await page.keyboard.press("3");
    await expect(questions.option("Search")).toBeChecked();
    await expect(questions.option("Sharing")).toBeChecked();
    await page.keyboard.press("Enter");

    await expect(questions.pager(3, 3)).toBeVisible();
    await page.keyboard.press("2");
    await expect(questions.option("payments")).toBeChecked();
    await page.keyboard.press("Enter");

    // W10: the batch ends on its review page, with Submit focused; Enter sends it.
    await expect(questions.submit).toBeFocused();
    await page.keyboard.press("Enter");

    await expect(questions.flow).toBeHidden();
    const echo = await modelEcho(page);
    expect(echo).toContain("The user answered your questions:");
    expect(echo).toContain("→ SQLite");
    expect(echo).toContain("→ Search; Sharing");
    expect(echo).toContain("→ payments");
  });

  test("[W5] the waiting plan-review card has no axe violations", async ({ page, server }) => {
    const shell = new ShellPage(page);
    const questions = new QuestionsPage(page);
    await shell.startSession(server.url, "Please review my plan");
    await expect(questions.planCard(REVIEW)).toBeVisible();
    await expectNoViolations(page);
  });

  test("[W5][I5] Approve on the plan card is reached and pressed with Tab and Enter alone", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    const questions = new QuestionsPage(page);
    await shell.startSession(server.url, "Please review my plan");
    const card = questions.planCard(REVIEW);
    await expect(card).toBeVisible();

    // The card took focus on its plan body (never on Approve), then Tab reaches the actions.
    await expect(card.getByRole("region", { name: "Plan", exact: true })).toBeFocused();
    await tabTo(page, questions.planButton(card, "approve"));
    await page.keyboard.press("Enter");

    await expect(card).toBeHidden();
    expect(await modelEcho(page)).toMatch(/^The user approved your plan\./);
  });
});

test.describe("an agent's plans with notes", () => {
  test.use({ scenario: "demo" });

  test("[W5][R5] two plans with the same notes on one page, the decided one unfolded and its revision on the card: no shared ids, no axe violations", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    const questions = new QuestionsPage(page);
    await shell.open(server.url);
    const agent = await connectAgent(server);
    const plan = (minutes: number) =>
      `# Plan: cache the catalog\n\nCache the lookups[^ttl].\n\n[^ttl]: ${minutes} minutes.\n`;
    const first = agent.callTool({ name: "review_plan", arguments: { plan: plan(5) } });
    await page.getByTestId("session-item").filter({ hasText: "outside-agent" }).click();
    await questions.planButton(questions.planCard(REVIEW), "approve").click();
    await first;
    const second = agent.callTool({ name: "review_plan", arguments: { plan: plan(10) } });
    const card = questions.planCard(REVIEW);
    await expect(card.getByText("10 minutes.")).toBeVisible();
    await page.getByTestId("entry-plan-decided").locator("summary").click();
    await expect(page.getByTestId("entry-plan-decided").getByText("5 minutes.")).toBeVisible();

    const ids = await page
      .locator("section.footnotes, a[data-footnote-ref]")
      .evaluateAll((elements) =>
        elements.flatMap((element) =>
          [element, ...element.querySelectorAll("[id]")].map((e) => e.id).filter(Boolean),
        ),
      );
    expect(ids).toHaveLength(6); // per plan: its reference, its note and its notes' heading
    expect(new Set(ids).size).toBe(6);
    await expectNoViolations(page);
    await questions.planButton(card, "approve").click();
    await second;
    await agent.close();
  });
});

test.describe("plan revisions", () => {
  test.use({ scenario: "planReview" });

  test("[W5][X4] a revised plan's card, its feedback and its diff have no axe violations; the diff toggles by keyboard", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    const questions = new QuestionsPage(page);
    await shell.open(server.url);
    await shell.newSession();
    await shell.command("/plan cache the price lookups");
    const first = questions.planCard(REVIEW);
    await first.getByRole("button", { name: questions.copy["planReview.addFeedback"] }).click();
    await first
      .getByRole("textbox", { name: questions.copy["planReview.feedbackLabel"] })
      .fill("Use smaller steps");
    await questions.planButton(first, "refuse").click();

    const revised = questions.planCard(REVIEW);
    await expect(revised.getByText("Revision 2")).toBeVisible();
    const toggle = revised.getByRole("button", { name: "Show changes since revision 1" });
    await tabTo(page, toggle, "Shift+Tab");
    await page.keyboard.press("Enter");
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
    await expect(revised.locator("ins").first()).toBeVisible();
    await expectNoViolations(page);
  });
});
