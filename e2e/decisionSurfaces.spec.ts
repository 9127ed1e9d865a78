import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { modelEcho, type QuestionLocale, QuestionsPage } from "./pages/questions.ts";
import { ShellPage } from "./pages/shell.ts";

// Long grace and deadline keep countdown chips out of screenshots.
const STILL = ["--no-build", "--grace-ms", "3600000", "--deadline-ms", "3600000"];
const LOCALES = ["en", "zh-CN"] as const;
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
const FEEDBACK = "FEEDBACK please merge steps 3 and 4";

// Each test opens its own session, so most share the worker's server (goldens and axe scans
// do not: they read the whole page, whose sidebar would list the other tests' sessions).
test.use({ scenario: "decisions", serverArgs: STILL, sharedServer: true });

/** W6: inside the viewport and the topmost element at its own centre, so a click lands on it. */
async function expectReachable(control: Locator): Promise<void> {
  await expect(control).toBeInViewport({ ratio: 1 });
  const onTop = await control.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) === element;
  });
  expect(onTop, `${await control.textContent()} is covered at its centre`).toBe(true);
}

async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    view: window.innerWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.view);
}

/** W11: focus is somewhere a user can act, never the page body. */
async function expectFocusOn(page: Page, target: Locator): Promise<void> {
  await expect(target).toBeFocused();
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
}

function permissionCard(page: Page, questions: QuestionsPage) {
  return page.getByRole("region", {
    name: questions.copy["permission.title"].replace("{{tool}}", "Write"),
  });
}

function permissionButton(card: Locator, questions: QuestionsPage, key: string) {
  const name = questions.copy[key as keyof QuestionsPage["copy"]];
  return card.getByRole("button", { name, exact: true });
}

async function longPlan(page: Page, url: string, locale: QuestionLocale) {
  const shell = new ShellPage(page);
  const questions = new QuestionsPage(page, locale);
  await shell.open(url);
  await shell.newSession();
  await shell.command("/plan long plan");
  const card = questions.planCard(questions.copy["planReview.cardName"]);
  await expect(card.getByRole("heading", { name: "Plan: a long migration" })).toBeVisible();
  return { shell, questions, card };
}

for (const locale of LOCALES) {
  test.describe(`decision bars in view (${locale})`, () => {
    test.use({ locale });

    for (const viewport of VIEWPORTS) {
      const size = `${viewport.width}×${viewport.height}`;

      test(`[W6] a 300-line plan and a 300-line write keep their decisions in view at ${size} (${locale})`, async ({
        page,
        server,
      }) => {
        await page.setViewportSize(viewport);
        const { questions, card } = await longPlan(page, server.url, locale);
        await expect(questions.planStrip).toBeInViewport({ ratio: 1 });
        for (const action of ["chat", "refuse", "approve"] as const) {
          await expectReachable(questions.planButton(card, action));
        }
        await expectNoHorizontalOverflow(page);

        // W6 holds with the feedback box open too.
        await card.getByRole("button", { name: questions.copy["planReview.addFeedback"] }).click();
        await expectReachable(questions.planButton(card, "approve"));

        await questions.planButton(card, "approve").click();
        const permission = permissionCard(page, questions);
        await expect(permission.getByTestId("permission-effect")).toContainText("line 300:");
        for (const key of ["permission.deny", "permission.allowOnce", "permission.allowAlways"]) {
          await expectReachable(permissionButton(permission, questions, key));
        }
        await expectNoHorizontalOverflow(page);
      });

      test(`[W6][W10] the generic flow's footer and the review page's Submit stay in view at ${size} (${locale})`, async ({
        page,
        server,
      }) => {
        await page.setViewportSize(viewport);
        const shell = new ShellPage(page);
        const questions = new QuestionsPage(page, locale);
        await shell.startSession(server.url, "ask me a batch");
        await questions.waitForFlow();
        await expectReachable(questions.skip);
        await expectReachable(questions.next);
        await expectNoHorizontalOverflow(page);
        await questions.next.click();
        await questions.next.click();
        await questions.flow.getByRole("button", { name: questions.copy["review.button"] }).click();
        const submit = questions.flow.getByRole("button", {
          name: questions.copy["review.submitSkipping_other"].replace("{{count}}", "3"),
        });
        await expectReachable(submit);
      });
    }
  });
}

test("[W6] the plan card's decisions are in view at 1366×768", async ({ page, server }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const { questions, card } = await longPlan(page, server.url, "en");
  for (const action of ["chat", "refuse", "approve"] as const) {
    await expectReachable(questions.planButton(card, action));
  }
});

test("[I7][P9][W9] Refuse with feedback: the caret goes to the box, the model hears the feedback, the plan stays as a card", async ({
  page,
  server,
}) => {
  const { shell, questions, card } = await longPlan(page, server.url, "en");
  await card.getByRole("button", { name: questions.copy["planReview.addFeedback"] }).click();
  const box = card.getByRole("textbox", { name: questions.copy["planReview.feedbackLabel"] });
  await expectFocusOn(page, box);
  await page.keyboard.type(FEEDBACK);
  await questions.planButton(card, "refuse").click();

  await expect(shell.assistantMessages.last()).toContainText(`Model heard: ${FEEDBACK}`);
  const decided = page.getByTestId("entry-plan-decided");
  await expect(decided).toHaveAttribute("data-outcome", "refused");
  await expect(decided.locator("summary")).toHaveText(
    `Revision 1 · refused — feedback: ${FEEDBACK}`,
  );
  // I7: this scripted model only repeats the feedback and ends its turn, revising nothing, so
  // no line says it is revising the plan.
  await expect(page.getByTestId("next-step")).toHaveCount(0);
  await expect(page.getByText(questions.copy["planReview.strip"], { exact: true })).toHaveCount(0);
  await shell.expectMode("plan");

  // Collapsible: the summary unfolds the rendered plan and folds it away again.
  const heading = decided.getByRole("heading", { name: "Plan: a long migration" });
  await expect(heading).toBeHidden();
  await decided.locator("summary").click();
  await expect(heading).toBeVisible();
  await decided.locator("summary").click();
  await expect(heading).toBeHidden();
});

test("[I7][W9][W11] Chat about it keeps the plan as a card, says what happens next and focuses the message box", async ({
  page,
  server,
}) => {
  const { shell, questions, card } = await longPlan(page, server.url, "en");
  await questions.planButton(card, "chat").click();
  await expectFocusOn(page, shell.composer);
  const decided = page.getByTestId("entry-plan-decided");
  await expect(decided).toHaveAttribute("data-outcome", "chat");
  await expect(decided.locator("summary")).toHaveText("Revision 1 · set aside to chat");
  await decided.locator("summary").click();
  await expect(decided.getByRole("heading", { name: "Plan: a long migration" })).toBeVisible();
  await expect(page.getByTestId("next-step")).toHaveText(questions.copy["nextStep.chat"]);
  await expect(page.getByText("Questions dismissed")).toHaveCount(0);
  await shell.expectMode("plan");
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`[W6][U1] a long plan opened in the inbox keeps its decisions in view at ${viewport.width}×${viewport.height}`, async ({
    page,
    server,
  }) => {
    await page.setViewportSize(viewport);
    const { shell, questions } = await longPlan(page, server.url, "en");
    // U2: on a phone the open session has the screen; the inbox link is in the session drawer.
    await shell.showSessionList();
    await page.getByTestId("inbox-link").click();
    // Oldest first: the server is shared, so this test's plan is the last of its kind.
    const row = page.getByTestId("inbox-item").filter({ hasText: "Plan: a long migration" }).last();
    await row.locator(".inbox-row").click();
    const card = row.locator(".inbox-card");
    await expect(card.getByRole("heading", { name: "Plan: a long migration" })).toBeVisible();
    for (const action of ["chat", "refuse", "approve"] as const) {
      await expectReachable(questions.planButton(card, action));
    }
  });
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
]) {
  test(`[W6][V7] with a long plan card open, the transcript keeps a few lines in view at ${viewport.width}×${viewport.height}`, async ({
    page,
    server,
  }) => {
    await page.setViewportSize(viewport);
    const { questions, card } = await longPlan(page, server.url, "en");
    const transcript = page.locator(".session-pane:not([hidden]) > .transcript-scroller");
    const height = await transcript.evaluate((element) => element.clientHeight);
    expect(height).toBeGreaterThanOrEqual(80);
    await expectReachable(questions.planButton(card, "approve"));
  });
}

test("[W6] a transcript longer than the window scrolls in its own pane: the page itself never scrolls", async ({
  page,
  server,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const { shell, questions, card } = await longPlan(page, server.url, "en");
  await questions.planButton(card, "chat").click();
  for (let i = 1; i <= 8; i++) {
    await shell.send(`FEEDBACK message ${i}`);
    await expect(page.getByText(`Model heard: FEEDBACK message ${i}`)).toBeVisible();
  }
  // Each message's heading is read by screen readers only; none may stretch the page.
  const heights = await page.evaluate(() => ({
    page: document.documentElement.scrollHeight,
    window: window.innerHeight,
  }));
  expect(heights.page).toBeLessThanOrEqual(heights.window);
});

test("[W10] a three-question batch with one page unanswered reaches the review page, which shows the gap", async ({
  page,
  server,
}) => {
  const shell = new ShellPage(page);
  const questions = new QuestionsPage(page);
  await shell.startSession(server.url, "ask me a batch");
  await questions.waitForFlow();
  await questions.option("SQLite").click();
  await questions.next.click();
  await questions.skip.click();
  await questions.option("billing").click();
  await questions.flow.getByRole("button", { name: "Review answers" }).click();

  const review = page.getByTestId("question-review");
  const items = review.getByTestId("question-review-item");
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText("SQLite");
  await expect(items.nth(1)).toHaveAttribute("data-answered", "false");
  await expect(items.nth(1)).toContainText("Not answered");
  await expect(items.nth(2)).toContainText("billing");
  await expect(review.getByRole("status")).toHaveText(
    "1 question has no answer; the agent will use its own judgment for it.",
  );
  await expect(questions.submit).toHaveCount(0);
  await questions.flow.getByRole("button", { name: "Submit with 1 skipped" }).click();
  expect(await modelEcho(page)).toContain("1");
  await expectFocusOn(page, shell.composer);
});

test.describe("the bundled demo by keyboard", () => {
  test.use({ scenario: "demo", sharedServer: false });

  test("[W11][W5] the whole demo lane by keyboard, focus asserted after every step", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    const questions = new QuestionsPage(page);
    await shell.open(server.url);

    // New session hands focus to the message box.
    await page.getByTestId("new-session").focus();
    await page.keyboard.press("Enter");
    await expectFocusOn(page, shell.composer);
    await page.keyboard.type("add a notes file for newcomers");
    await page.keyboard.press("Enter");

    // The question card takes focus; a digit picks, Enter submits the one question.
    await expect(questions.flow).toBeVisible();
    await expectFocusOn(page, questions.flow);
    await page.keyboard.press("1");
    await expect(questions.flow.getByRole("radio").first()).toBeChecked();
    await page.keyboard.press("Enter");

    // The plan card takes focus on its body, never on a button.
    const card = questions.planCard(questions.copy["planReview.cardName"]);
    const body = card.getByRole("region", { name: questions.copy["planReview.body"] });
    await expectFocusOn(page, body);
    const approve = questions.planButton(card, "approve");
    for (let presses = 0; presses < 8; presses++) {
      if (await approve.evaluate((element) => element === document.activeElement)) break;
      await page.keyboard.press("Tab");
    }
    await expectFocusOn(page, approve);
    await page.keyboard.press("Enter");

    // The permission card that follows takes focus itself; Tab reaches Allow once.
    const permission = page.getByRole("region", { name: "Allow Write?" });
    await expectFocusOn(page, permission);
    const allow = permission.getByRole("button", { name: "Allow once", exact: true });
    for (let presses = 0; presses < 6; presses++) {
      if (await allow.evaluate((element) => element === document.activeElement)) break;
      await page.keyboard.press("Tab");
    }
    await expectFocusOn(page, allow);
    await page.keyboard.press("Enter");

    // Done: the message box has the keyboard again.
    await expect(
      shell.assistantMessages.last().getByRole("heading", { name: "Done" }),
    ).toBeVisible();
    await expectFocusOn(page, shell.composer);
  });
});

/** W5: axe over the page with the card on screen. */
async function expectNoViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const found = results.violations.map((violation) => ({
    rule: violation.id,
    targets: violation.nodes.map((node) => node.target.join(" ")),
  }));
  expect(found).toEqual([]);
}

for (const locale of LOCALES) {
  for (const theme of ["light", "dark"] as const) {
    test.describe(`axe on every card (${locale}, ${theme})`, () => {
      // Axe reads the whole page, sidebar included: on a server of its own, the same page each run.
      test.use({ locale, colorScheme: theme, sharedServer: false });

      test(`[W5][W13] plan card, permission card and decided plan have no violations (${locale}, ${theme})`, async ({
        page,
        server,
      }) => {
        const { questions, card } = await longPlan(page, server.url, locale);
        await expectNoViolations(page);
        await questions.planButton(card, "approve").click();
        await expect(page.getByTestId("permission-effect")).toBeVisible();
        await expectNoViolations(page);
      });

      test(`[W5][W10] the generic flow and its review page have no violations (${locale}, ${theme})`, async ({
        page,
        server,
      }) => {
        const shell = new ShellPage(page);
        const questions = new QuestionsPage(page, locale);
        await shell.startSession(server.url, "ask me a batch");
        await questions.waitForFlow();
        await expectNoViolations(page);
        await questions.next.click();
        await questions.next.click();
        await questions.flow.getByRole("button", { name: questions.copy["review.button"] }).click();
        await expect(page.getByTestId("question-review")).toBeVisible();
        await expectNoViolations(page);
      });
    });
  }
}

/** The model's name carries the scenario's absolute path, which differs per checkout. */
function modelPicker(page: Page): Locator {
  return page.getByRole("combobox").first();
}

// Goldens: regenerate with `npx playwright test e2e/decisionSurfaces.spec.ts --update-snapshots`.
for (const locale of LOCALES) {
  test.describe(`goldens at 1280×800 (${locale})`, () => {
    test.use({ locale, viewport: { width: 1280, height: 800 }, sharedServer: false });

    test(`[W6][I5] the plan card with its decision bar (${locale})`, async ({ page, server }) => {
      const { card } = await longPlan(page, server.url, locale);
      await expect(page).toHaveScreenshot(`decision-plan-card-${locale}.png`, {
        mask: [modelPicker(page)],
      });
      await expect(card).toBeVisible();
    });

    test(`[V5][V6] the plan card with its approve options open, axe clean, and in edit mode (${locale})`, async ({
      page,
      server,
    }) => {
      const { questions, card } = await longPlan(page, server.url, locale);
      await card.getByRole("button", { name: questions.copy["planReview.approveOptions"] }).click();
      await expect(
        card.getByRole("radio", { name: questions.copy["planReview.option.default"] }),
      ).toBeChecked();
      await expect(page).toHaveScreenshot(`decision-approve-options-${locale}.png`, {
        mask: [modelPicker(page)],
      });
      await expectNoViolations(page);
      await card.getByRole("button", { name: questions.copy["planReview.editPlan"] }).click();
      await expect(
        card.getByRole("textbox", { name: questions.copy["planReview.editLabel"] }),
      ).toBeVisible();
      await expectNoViolations(page);
    });

    test(`[W6][W13] the permission card with the content it writes (${locale})`, async ({
      page,
      server,
    }) => {
      const { questions, card } = await longPlan(page, server.url, locale);
      await questions.planButton(card, "approve").click();
      await expect(page.getByTestId("permission-effect")).toContainText("line 1:");
      await page.getByTestId("composer-input").focus();
      await expect(page).toHaveScreenshot(`decision-permission-card-${locale}.png`, {
        mask: [modelPicker(page)],
      });
    });

    test(`[W10] the review page with a gap (${locale})`, async ({ page, server }) => {
      const shell = new ShellPage(page);
      const questions = new QuestionsPage(page, locale);
      await shell.startSession(server.url, "ask me a batch");
      await questions.waitForFlow();
      await questions.flow.getByRole("radio").first().click();
      await questions.next.click();
      await questions.skip.click();
      await questions.flow.getByRole("radio").first().click();
      await questions.flow.getByRole("button", { name: questions.copy["review.button"] }).click();
      await expect(page.getByTestId("question-review")).toBeVisible();
      await expect(page).toHaveScreenshot(`decision-review-page-${locale}.png`, {
        mask: [modelPicker(page)],
      });
    });
  });
}
