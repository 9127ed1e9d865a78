import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { type QuestionLocale, QuestionsPage } from "./pages/questions.ts";
import { ShellPage } from "./pages/shell.ts";

// V1–V3 over the bundled demo: the scripted model reworks the lines a comment asks to change.
// Long grace and deadline keep countdown chips out of screenshots.
const STILL = ["--no-build", "--grace-ms", "3600000", "--deadline-ms", "3600000"];
const LOCALES = ["en", "zh-CN"] as const;

test.use({ scenario: "demo", serverArgs: STILL });

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/{{(\w+)}}/g, (_, name: string) => String(values[name] ?? ""));

/** The demo's task lane up to its first plan card. */
async function demoPlan(page: Page, url: string, locale: QuestionLocale = "en") {
  const shell = new ShellPage(page);
  const questions = new QuestionsPage(page, locale);
  await shell.startSession(url, "add a notes file for newcomers");
  await questions.waitForFlow();
  await questions.option("Project map").click();
  await questions.submit.click();
  const card = questions.planCard(questions.copy["planReview.cardName"]);
  const body = card.getByRole("region", { name: questions.copy["planReview.body"] });
  await expect(
    body.getByRole("heading", { name: "Plan: a notes file for newcomers" }),
  ).toBeVisible();
  return { shell, questions, card, body };
}

/** V1 by keyboard: j/k to the block, c, type, Add comment. */
async function commentByKeys(
  page: Page,
  body: Locator,
  questions: QuestionsPage,
  moves: string[],
  text: string,
) {
  await body.focus();
  for (const key of moves) await page.keyboard.press(key);
  await page.keyboard.press("c");
  const box = page.getByRole("textbox", { name: /^Your comment on|^对“/ });
  await expect(box).toBeFocused();
  await page.keyboard.type(text);
  await page.getByRole("button", { name: questions.copy["planReview.comments.save"] }).click();
  await expect(body.getByText(text)).toBeVisible();
  await expect(body).toBeFocused();
}

/** V1 with the pointer: select part of a block's text, then the button that appears. */
async function commentOnSelection(
  page: Page,
  block: Locator,
  part: string,
  questions: QuestionsPage,
  text: string,
) {
  await block.evaluate((element, wanted) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(wanted) ?? -1;
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + wanted.length);
      const selection = window.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      element.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
      return;
    }
    throw new Error(`"${wanted}" is not in the block`);
  }, part);
  await page
    .getByRole("button", { name: questions.copy["planReview.comments.addSelection"] })
    .click();
  await page.keyboard.type(text);
  await page.getByRole("button", { name: questions.copy["planReview.comments.save"] }).click();
  await expect(page.getByText(text)).toBeVisible();
}

/** W5 over the plan card (the phone header's model picker is another surface's business). */
async function expectNoViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .include('section[aria-label="Review this implementation plan"]')
    .analyze();
  expect(
    results.violations.map((v) => ({
      rule: v.id,
      targets: v.nodes.map((n) => n.target.join(" ")),
    })),
  ).toEqual([]);
}

test("[V1][V2][V3] comment on two lines, request changes: revision 2 shows both comments marked changed / unchanged and the change summary", async ({
  page,
  server,
}) => {
  // Frames in order, so the reload below can wait for the server to acknowledge the last draft.
  const frames: { sent: boolean; text: string }[] = [];
  page.on("websocket", (socket) => {
    socket.on("framesent", ({ payload }) => frames.push({ sent: true, text: String(payload) }));
    socket.on("framereceived", ({ payload }) =>
      frames.push({ sent: false, text: String(payload) }),
    );
  });
  const { questions, card, body } = await demoPlan(page, server.url);
  // Line 13 of the plan: the third step. Blocks: h1, goal, h2, item 1, two nested items, item 2, item 3.
  await commentByKeys(
    page,
    body,
    questions,
    ["j", "j", "j", "j", "j", "j", "j", "j"],
    "Also leave .gitignore alone",
  );
  const goal = body.getByText(/short guide that tells a newcomer/);
  await commentOnSelection(page, goal, "a short guide", questions, "Is one file enough?");
  await expect(card.getByRole("article")).toHaveCount(2);
  await expectNoViolations(page);

  // Reload: the comments come back from the server's draft, on the same blocks.
  await expect
    .poll(() => {
      const saved = frames.findLastIndex(
        ({ sent, text }) =>
          sent && text.includes('"interaction.draft"') && text.includes("Is one file enough?"),
      );
      return (
        saved >= 0 &&
        frames.slice(saved + 1).some(({ sent, text }) => !sent && text.includes('"receipt"'))
      );
    })
    .toBe(true);
  await page.reload();
  await expect(card.getByRole("article")).toHaveCount(2);
  await expect(
    card.getByRole("article", { name: "Comment on “Leave every existing file as it is.”" }),
  ).toContainText("line 13");

  await card.getByRole("button", { name: "Request changes (2 comments)" }).click();

  const revised = page.getByText("Revision 2");
  await expect(revised).toBeVisible();
  const card2 = questions.planCard(questions.copy["planReview.cardName"]);
  await expect(card2.getByText("+1 / −1 lines since revision 1")).toBeVisible();
  await expect(card2.getByText("Comments addressed: 1 of 2")).toBeVisible();
  const changed = card2.getByRole("article", {
    name: "Comment on “Leave every existing file as it is.”",
  });
  await expect(changed).toContainText("Changed");
  await expect(changed).toContainText("Also leave .gitignore alone");
  const unchanged = card2.getByRole("article", { name: "Comment on “a short guide”" });
  await expect(unchanged).toContainText("Unchanged");
  // Each sits beside the block it was anchored to.
  const step = card2.getByText(
    /Leave every existing file as it is\. \(revised: Also leave \.gitignore alone\)/,
  );
  await expect(step).toHaveAttribute("data-qmark", "earlier-changed");
  const [stepBox, changedBox] = [await step.boundingBox(), await changed.boundingBox()];
  expect(Math.abs((stepBox?.y ?? 0) - (changedBox?.y ?? 999))).toBeLessThan(40);
  expect(changedBox?.x ?? 0).toBeGreaterThan((stepBox?.x ?? 0) + (stepBox?.width ?? 0) - 10);
  await expectNoViolations(page);

  // The model read every comment with its quote and line numbers.
  const told = new ShellPage(page).userMessages.filter({
    hasText: "I am not approving the plan yet",
  });
  await expect(told).toContainText('lines="13"');
  await expect(told).toContainText("a short guide");
});

test("[V1] on a phone the comment sits below its block", async ({ page, server }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { questions, body } = await demoPlan(page, server.url);
  await commentByKeys(
    page,
    body,
    questions,
    ["j", "j", "j", "j", "j", "j", "j", "j"],
    "Also leave .gitignore alone",
  );
  const step = body.locator("li", { hasText: "Leave every existing file as it is." });
  const comment = body.getByRole("article");
  const [stepBox, commentBox] = [await step.boundingBox(), await comment.boundingBox()];
  expect(commentBox!.y).toBeGreaterThanOrEqual(stepBox!.y + stepBox!.height - 1);
  // Nothing below is covered: the next heading starts under the comment.
  const files = await body.getByRole("heading", { name: "Files" }).boundingBox();
  expect(files!.y).toBeGreaterThan(commentBox!.y + commentBox!.height);
  await expectNoViolations(page);
});

for (const locale of LOCALES) {
  test.describe(`keyboard (${locale})`, () => {
    test.use({ locale });

    test(`[V1][W5] comments without a mouse: write, cancel, add, edit and remove by keys alone, axe clean (${locale})`, async ({
      page,
      server,
    }) => {
      const { questions, card, body } = await demoPlan(page, server.url, locale);
      const copy = questions.copy;
      const box = card.getByRole("textbox", { name: /^Your comment on|^对“/ });
      const noViolations = async () => {
        const results = await new AxeBuilder({ page })
          .include(`section[aria-label="${copy["planReview.cardName"]}"]`)
          .analyze();
        expect(results.violations.map((v) => v.id)).toEqual([]);
      };
      await body.focus();
      for (let i = 0; i < 8; i++) await page.keyboard.press("j");
      await page.keyboard.press("c");
      await expect(box).toBeFocused();
      await page.keyboard.type("Not this one");
      await noViolations();
      // Escape leaves nothing behind and gives the keys back to the plan.
      await page.keyboard.press("Escape");
      await expect(box).toHaveCount(0);
      await expect(card.getByRole("article")).toHaveCount(0);
      await expect(body).toBeFocused();

      await page.keyboard.press("c");
      await expect(box).toBeFocused();
      await page.keyboard.type("Also leave .gitignore alone");
      await page.keyboard.press("Control+Enter");
      const article = card.getByRole("article");
      await expect(article).toContainText("Also leave .gitignore alone");
      await expect(body).toBeFocused();
      await noViolations();

      // Tab reaches the card's Edit; the edit is saved with Ctrl+Enter and focus comes back to Edit.
      const edit = article.getByRole("button", { name: copy["planReview.comments.edit"] });
      for (let i = 0; i < 6; i++) {
        if (await edit.evaluate((element) => element === document.activeElement)) break;
        await page.keyboard.press("Tab");
      }
      await expect(edit).toBeFocused();
      await page.keyboard.press("Enter");
      const editor = article.getByRole("textbox");
      await expect(editor).toBeFocused();
      await page.keyboard.press("Control+A");
      await page.keyboard.type("Leave .gitignore and the README alone");
      await page.keyboard.press("Control+Enter");
      await expect(article).toContainText("Leave .gitignore and the README alone");
      await expect(edit).toBeFocused();

      // Remove is the next stop; removing hands the keys back to the plan.
      await page.keyboard.press("Tab");
      await expect(
        article.getByRole("button", { name: copy["planReview.comments.remove"] }),
      ).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(card.getByRole("article")).toHaveCount(0);
      await expect(body).toBeFocused();
      await noViolations();
    });
  });
}

/** The model's name carries the scenario's absolute path, which differs per checkout. */
const modelPicker = (page: Page) => page.getByRole("combobox").first();

// Goldens: regenerate with `npx playwright test e2e/planComments.spec.ts --update-snapshots`.
for (const locale of LOCALES) {
  for (const viewport of [
    { width: 1280, height: 800, name: "desktop" },
    { width: 390, height: 844, name: "phone" },
  ]) {
    test.describe(`golden: comments on the plan (${locale}, ${viewport.name})`, () => {
      test.use({ locale, viewport: { width: viewport.width, height: viewport.height } });

      test(`[V1] a plan with two comments, ${viewport.name === "desktop" ? "in the margin" : "inline"} (${locale})`, async ({
        page,
        server,
      }) => {
        const { questions, card, body } = await demoPlan(page, server.url, locale);
        await commentByKeys(
          page,
          body,
          questions,
          ["j", "j", "j", "j", "j", "j", "j", "j"],
          "Also leave .gitignore alone",
        );
        await commentOnSelection(
          page,
          body.getByText(/short guide that tells a newcomer/),
          "a short guide",
          questions,
          "Is one file enough?",
        );
        await expect(
          card.getByRole("button", {
            name: fill(questions.copy["planReview.requestChanges_other"], { count: 2 }),
          }),
        ).toBeVisible();
        if (viewport.name === "phone") {
          // U2: with comments, the three decisions still share one row at 390 px.
          const tops = await card
            .locator(".qcard-actions > button")
            .evaluateAll((buttons) =>
              buttons.map((button) => Math.round(button.getBoundingClientRect().top)),
            );
          expect(tops, "the decisions' rows").toHaveLength(3);
          expect(new Set(tops).size, `the decisions' tops: ${tops.join(", ")}`).toBe(1);
        }
        await page.mouse.click(1, 1);
        if (viewport.name === "desktop") await body.evaluate((element) => element.scrollTo(0, 0));
        // On a phone the plan region is short: show the first comment below its block.
        else
          await body
            .getByRole("article")
            .first()
            .evaluate((element) => element.scrollIntoView({ block: "end" }));
        await expect(page).toHaveScreenshot(`plan-comments-${viewport.name}-${locale}.png`, {
          mask: [modelPicker(page)],
        });
      });
    });
  }
}
