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

/** U2: the sidebar's share of the phone's height still shows one session row whole. */
async function expectWholeSessionRow(page: Page): Promise<void> {
  const [list, row] = await Promise.all([
    page.locator(".session-list").boundingBox(),
    page.locator(".session-row").first().boundingBox(),
  ]);
  expect(row, "a session row is shown").not.toBeNull();
  expect(row!.y + row!.height, "the first session row is cut off").toBeLessThanOrEqual(
    list!.y + list!.height + 0.5,
  );
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
  await expectWholeSessionRow(page);

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
