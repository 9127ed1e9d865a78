import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { QuestionsPage } from "./pages/questions.ts";
import { ShellPage } from "./pages/shell.ts";

const REVIEW = "Review this implementation plan";

test.use({
  scenario: "demo",
  viewport: { width: 390, height: 844 },
  hasTouch: true,
  isMobile: true,
});

/** U2: nothing wider than the phone's screen, at any step. */
async function expectNoOverflow(page: Page, step: string): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    view: document.documentElement.clientWidth,
  }));
  expect(widths.scroll, `${step}: the page is wider than the phone`).toBeLessThanOrEqual(
    widths.view,
  );
}

/**
 * U2: with a session open the list is out of the way, one tap from the header: the drawer shows
 * this session's row whole, and its back button returns to the session.
 */
async function expectListBehindToggle(page: Page, shell: ShellPage): Promise<void> {
  const list = page.getByTestId("session-list");
  await expect(list).toBeHidden();
  await tap(shell.sessionsToggle);
  const row = page.locator('[data-testid="session-item"][aria-current="page"]');
  await expect(row).toBeInViewport({ ratio: 1 });
  await tap(shell.sessionsClose);
  await expect(list).toBeHidden();
  await expect(shell.sessionsToggle).toBeFocused();
}

/** W6: what of an element the window shows, in px of height. */
function visibleHeight(element: Locator): Promise<number> {
  return element.evaluate((node) => {
    const box = node.getBoundingClientRect();
    return Math.max(0, Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0));
  });
}

/** W6: every control in the window whole, and the page itself not scrolled to get there. */
async function expectInViewWithoutScrolling(page: Page, controls: Locator[]): Promise<void> {
  for (const control of controls) await expect(control).toBeInViewport({ ratio: 1 });
  const scroll = await page.evaluate(() => ({
    scrollY: window.scrollY,
    scroll: document.documentElement.scrollHeight,
    view: document.documentElement.clientHeight,
  }));
  expect(scroll.scrollY, "the page scrolled").toBe(0);
  expect(scroll.scroll, "the page is taller than the phone").toBeLessThanOrEqual(scroll.view);
}

/** U2/W6: what a waiting card leaves the message box, in px from its top edge to the window's foot. */
const WAITING_BOX = 64;
/** U2: the touch floor; a button whose label runs onto a second line is taller. */
const TOUCH_TARGET = 44;

/** U2/W6: the message box's share of the phone: from its top edge to the window's foot. */
async function boxShare(page: Page, box: Locator): Promise<number> {
  const top = await box.evaluate((node) => node.getBoundingClientRect().top);
  return page.viewportSize()!.height - top;
}

/** U2: every button a card shows has its whole label on one line: none taller, none cut short. */
async function expectOneLineLabels(card: Locator, step: string): Promise<void> {
  const buttons = await card.getByRole("button").evaluateAll((nodes) =>
    nodes
      .filter((node) => node.checkVisibility())
      .map((node) => ({
        name: node.getAttribute("aria-label") ?? node.textContent,
        height: node.getBoundingClientRect().height,
        fits: node.scrollWidth <= node.clientWidth,
      })),
  );
  expect(buttons.length, step).toBeGreaterThan(0);
  for (const button of buttons) {
    expect(button.height, `${step}: "${button.name}" takes two lines`).toBeLessThanOrEqual(
      TOUCH_TARGET,
    );
    expect(button.fits, `${step}: "${button.name}" is cut short`).toBe(true);
  }
}

/** U2: a plan's table keeps its words whole on a phone (it scrolls sideways if it must). */
async function expectWholeWordsInTables(card: Locator, step: string): Promise<void> {
  const table = card.locator(".markdown table").first();
  await table.scrollIntoViewIfNeeded();
  const broken = await table.evaluate((node) => {
    const split: string[] = [];
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      for (const word of (text.textContent ?? "").matchAll(/[A-Za-z]+/g)) {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        if (range.getClientRects().length > 1) split.push(word[0]);
      }
    }
    return split;
  });
  expect(broken, `${step}: words broken across lines in a table`).toEqual([]);
}

/** U2/W6: the plan card's tools share one row, so the plan keeps the height a second would take. */
async function expectToolsOnOneRow(tools: Locator[], step: string): Promise<void> {
  const tops = await Promise.all(
    tools.map((tool) => tool.evaluate((node) => node.getBoundingClientRect().top)),
  );
  expect(new Set(tops).size, `${step}: the plan's tools take more than one row`).toBe(1);
}

/** A tap lands only on something on screen: bring it in first, as a thumb scroll would. */
async function tap(control: Locator): Promise<void> {
  await control.scrollIntoViewIfNeeded();
  await expect(control).toBeInViewport();
  await control.tap();
}

test("[U2] at 390×844 the whole demo lane works by touch: plan mode, a question, the plan review, then an approved write; nothing overflows", async ({
  page,
  server,
}) => {
  const shell = new ShellPage(page);
  const questions = new QuestionsPage(page);
  await shell.open(server.url);
  await expectNoOverflow(page, "start");

  await tap(page.getByTestId("new-session"));
  await expect(shell.composer).toBeVisible();
  await tap(shell.composer);
  await shell.composer.fill("add a notes file for newcomers");
  await tap(page.getByTestId("composer-send"));
  await expect(shell.userMessages.last()).toContainText("add a notes file for newcomers");
  await expectListBehindToggle(page, shell);

  await shell.expectMode("plan");
  await expect(questions.flow).toBeVisible();
  await expectNoOverflow(page, "question");
  await tap(questions.option("Project map"));
  await expect(questions.option("Project map")).toBeChecked();
  await tap(questions.submit);

  const card = questions.planCard(REVIEW);
  await expect(
    card.getByRole("heading", { name: "Plan: a notes file for newcomers" }),
  ).toBeVisible();
  await expectNoOverflow(page, "plan review");
  await expectWholeWordsInTables(card, "plan review");
  await tap(questions.planButton(card, "approve"));

  await shell.expectMode("build");
  const allow = page.getByRole("button", { name: questions.copy["permission.allowOnce"] });
  await expect(allow).toBeVisible();
  await expectNoOverflow(page, "permission");
  await tap(allow);

  await expect(shell.assistantMessages.last().getByRole("heading", { name: "Done" })).toBeVisible();
  await expectNoOverflow(page, "done");
  expect(readFileSync(join(server.workspace, "plangate-demo.md"), "utf8")).toMatch(/^# Welcome/);
});

/** Of the phone's 844 px, the share the plan's own text must have while it waits (W6). */
const PLAN_SHARE = 0.45;

for (const locale of ["en", "zh-CN"] as const) {
  test.describe(`a waiting decision on a phone (${locale})`, () => {
    test.use({ locale });

    test(`[U2][W6] at 390×844 a waiting card has the screen: the question shows whole, the plan gets ${PLAN_SHARE * 100}% of the height and scrolls inside its card, every decision stays in view, and the list is a keystroke away (${locale})`, async ({
      page,
      server,
    }) => {
      const shell = new ShellPage(page);
      const questions = new QuestionsPage(page, locale);
      await shell.startSession(server.url, "add a notes file");
      const height = page.viewportSize()!.height;

      await expect(questions.flow).toBeVisible();
      const question = questions.question("What should the new notes file focus on?");
      const shown = await question.evaluate((node) => ({
        client: node.clientHeight,
        scroll: node.scrollHeight,
      }));
      expect(shown.client, "the question's options are cut short").toBeGreaterThanOrEqual(
        Math.min(shown.scroll, PLAN_SHARE * height),
      );
      await expectInViewWithoutScrolling(page, [
        questions.dismiss,
        questions.skip,
        questions.submit,
      ]);
      await tap(questions.option("Project map"));
      await tap(questions.submit);

      const card = questions.planCard(questions.copy["planReview.cardName"]);
      const plan = card.getByRole("region", { name: questions.copy["planReview.body"] });
      await expect(
        card.getByRole("heading", { name: "Plan: a notes file for newcomers" }),
      ).toBeVisible();
      expect(await visibleHeight(plan), "the plan's share of the phone").toBeGreaterThanOrEqual(
        PLAN_SHARE * height,
      );
      const buttons = (["chat", "refuse", "approve"] as const).map((action) =>
        questions.planButton(card, action),
      );
      await expectInViewWithoutScrolling(page, buttons);
      // The plan is longer than its share: it scrolls inside the card, the buttons stay put.
      await plan.evaluate((node) => {
        node.scrollTop = node.scrollHeight;
      });
      await expect.poll(() => plan.evaluate((node) => node.scrollTop)).toBeGreaterThan(0);
      await expectInViewWithoutScrolling(page, buttons);

      // W5: the list is out of the way, reached by keyboard from the header and left with Escape.
      await expect(page.getByTestId("session-list")).toBeHidden();
      await shell.sessionsToggle.focus();
      await page.keyboard.press("Enter");
      await expect(shell.sessionsToggle).toHaveAttribute("aria-expanded", "true");
      const row = page.locator('[data-testid="session-item"][aria-current="page"]');
      await expect(row).toBeFocused();
      await expect(row).toBeInViewport({ ratio: 1 });
      await page.keyboard.press("Escape");
      await expect(shell.sessionsToggle).toBeFocused();
      await expect(shell.sessionsToggle).toHaveAttribute("aria-expanded", "false");
      await expectInViewWithoutScrolling(page, buttons);
    });
    test(`[U2][W6] at 390 and 360 px a waiting card's buttons each keep to one line, the plan's tools to one row, and the empty message box to one line until it has the keyboard (${locale})`, async ({
      page,
      server,
    }) => {
      const shell = new ShellPage(page);
      const questions = new QuestionsPage(page, locale);
      const send = page.getByTestId("composer-send");
      await shell.startSession(server.url, "add a notes file");

      await expect(questions.flow).toBeVisible();
      await expect(shell.composer).not.toBeFocused();
      expect(await boxShare(page, shell.composer), "the waiting box's share").toBeLessThanOrEqual(
        WAITING_BOX,
      );
      await expect(send).toBeHidden();
      await expectOneLineLabels(questions.flow, "question");

      // W5: Tab reaches the box, which opens out with its bar; what is typed keeps it open.
      await questions.submit.focus();
      await page.keyboard.press("Tab");
      await expect(shell.composer).toBeFocused();
      await expect(send).toBeVisible();
      expect(await boxShare(page, shell.composer)).toBeGreaterThan(WAITING_BOX);
      await page.keyboard.type("later");
      await questions.submit.focus();
      await expect(send).toBeVisible();
      await shell.composer.fill("");
      await questions.submit.focus();
      await expect(send).toBeHidden();

      await tap(questions.option("Project map"));
      await tap(questions.submit);
      const card = questions.planCard(questions.copy["planReview.cardName"]);
      await expect(
        card.getByRole("heading", { name: "Plan: a notes file for newcomers" }),
      ).toBeVisible();
      const tool = (key: "editPlan" | "addFeedback" | "ask" | "approveOptions") =>
        card.getByRole("button", { name: questions.copy[`planReview.${key}`], exact: true });
      const approveOptions = tool("approveOptions");
      const tools = [tool("editPlan"), tool("addFeedback"), tool("ask"), approveOptions];
      for (const width of [390, 360]) {
        await page.setViewportSize({ width, height: 844 });
        expect(
          await boxShare(page, shell.composer),
          `${width} px: the box's share`,
        ).toBeLessThanOrEqual(WAITING_BOX);
        await expect(send).toBeHidden();
        await expectOneLineLabels(card, `plan card at ${width} px`);
        await expectToolsOnOneRow(tools, `${width} px`);
      }

      // The longest Approve label, once an option is chosen, still keeps to one line.
      await tap(approveOptions);
      await tap(card.getByRole("radio", { name: questions.copy["planReview.option.edit"] }));
      await expect(
        card.getByRole("button", { name: questions.copy["planReview.option.edit"], exact: true }),
      ).toBeVisible();
      await expectOneLineLabels(card, "Approve options open at 360 px");
    });
  });
}
