import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { QuestionsPage } from "./pages/questions.ts";
import { ShellPage } from "./pages/shell.ts";

const STILL = ["--no-build", "--grace-ms", "3600000", "--deadline-ms", "3600000"];

test.use({
  scenario: "decisions",
  serverArgs: STILL,
  viewport: { width: 390, height: 844 },
  hasTouch: true,
  isMobile: true,
});

/** U2: every control on screen, by its accessible name or text, that is under 44 px. */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const controls = document.querySelectorAll<HTMLElement>(
      "button, select, summary, a[href], .qflow-option",
    );
    const small: string[] = [];
    for (const control of controls) {
      const box = control.getBoundingClientRect();
      const shown = box.width > 0 && box.height > 0 && control.closest(".sr-only") === null;
      const onScreen = box.bottom > 0 && box.top < window.innerHeight;
      if (!shown || !onScreen || control.classList.contains("skip-link")) continue;
      if (box.height < 44 || box.width < 44) {
        const name = control.getAttribute("aria-label") ?? control.textContent?.trim() ?? "";
        small.push(
          `${control.tagName.toLowerCase()} "${name.slice(0, 40)}" ${Math.round(box.width)}×${Math.round(box.height)}`,
        );
      }
    }
    return small;
  });
}

test("[U2] on a touch phone a question's controls are 44 px targets", async ({ page, server }) => {
  const shell = new ShellPage(page);
  const questions = new QuestionsPage(page, "en");
  await shell.startSession(server.url, "ask me a batch");
  await questions.waitForFlow();
  expect(await smallTargets(page)).toEqual([]);
  // A touch screen has no number keys: the card does not offer them.
  await expect(questions.flow.getByText(/Number keys pick an option/)).toBeHidden();
});

test("[U2] on a touch phone the plan card's controls are 44 px targets", async ({
  page,
  server,
}) => {
  const shell = new ShellPage(page);
  const questions = new QuestionsPage(page, "en");
  await shell.open(server.url);
  await shell.newSession();
  await shell.command("/plan long plan");
  const card = questions.planCard(questions.copy["planReview.cardName"]);
  await expect(card.getByRole("heading", { name: "Plan: a long migration" })).toBeVisible();
  expect(await smallTargets(page)).toEqual([]);
});
