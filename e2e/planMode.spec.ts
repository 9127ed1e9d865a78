import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { parse } from "yaml";
import { expect, test } from "./fixtures.ts";
import { QuestionsPage } from "./pages/questions.ts";
import { ShellPage } from "./pages/shell.ts";

const REVIEW = "Review this implementation plan";
const TASK = "cache the price lookups";
const FEEDBACK = "Split it into smaller steps";

interface ScenarioFile {
  turns: { steps: { tools?: { name: string; input?: { plan?: string } }[] }[] }[];
}
/** The plans the scenario submits, read from the file itself: [revised, first]. */
const [REVISED_PLAN, PLAN] = (
  parse(
    readFileSync(join(import.meta.dirname, "scenarios", "planReview.yaml"), "utf8"),
  ) as ScenarioFile
).turns.map(
  (turn) =>
    turn.steps.flatMap((step) => step.tools ?? []).find((tool) => tool.name === "ExitPlanMode")!
      .input!.plan!,
);

function sessionIdOf(page: Page): string {
  const match = /#\/s\/(.+)$/.exec(page.url());
  if (!match?.[1]) throw new Error(`no session in ${page.url()}`);
  return decodeURIComponent(match[1]);
}

const plansDir = (workspace: string) => join(workspace, ".zcode", "plans");

async function planTask(page: Page, url: string) {
  const shell = new ShellPage(page);
  const questions = new QuestionsPage(page);
  await shell.open(url);
  await shell.newSession();
  await shell.command(`/plan ${TASK}`);
  await expect(shell.userMessages.filter({ hasText: TASK })).toBeVisible();
  await shell.expectMode("plan");
  const card = questions.planCard(REVIEW);
  await expect(card).toBeVisible();
  return { shell, questions, card };
}

test.describe("plan mode with a plan-review scenario", () => {
  test.use({ scenario: "planReview" });

  test("[P2][I4][I5][P8] /plan enters plan mode, the review takes the composer, Approve completes the turn and saves the plan", async ({
    page,
    server,
  }) => {
    const { shell, questions, card } = await planTask(page, server.url);

    // The decision card, not the generic flow: no pager, radios, skip or custom answer.
    await expect(questions.planStrip).toBeVisible();
    await expect(questions.flow).toHaveCount(0);
    await expect(page.getByRole("radio")).toHaveCount(0);
    await expect(page.getByText("1 / 1", { exact: true })).toHaveCount(0);
    await expect(
      card.getByRole("heading", { name: "Plan: cache the price lookups" }),
    ).toBeVisible();
    await expect(card.getByRole("table")).toBeVisible();
    await expect(card).toHaveScreenshot("plan-review-waiting-en.png");

    await questions.planButton(card, "approve").click();
    await expect(card).toHaveCount(0);
    await shell.expectMode("build");
    await expect(page.getByTestId("entry-plan-decided")).toHaveAttribute(
      "data-outcome",
      "approved",
    );
    await expect(
      shell.assistantMessages.last().getByRole("heading", { name: "Approved" }),
    ).toBeVisible();
    await expect(page.getByTestId("composer-stop")).toHaveCount(0);

    const sessionId = sessionIdOf(page);
    const file = join(
      plansDir(server.workspace),
      `plan-${sessionId.replace(/[^A-Za-z0-9_-]/g, "-")}.md`,
    );
    expect(readFileSync(file, "utf8")).toBe(PLAN);

    // The golden is the transcript as a reader sees it: rendered lines, closed details left out.
    // biome-ignore lint/performance/useDomNodeTextContent: textContent would run every line together
    const rendered = await shell.transcript.innerText();
    const transcript = rendered.replaceAll(sessionId, "<session>");
    expect(transcript).toMatchSnapshot("plan-approved-transcript.txt");
  });

  test("[V4][V5] approve with a note and 'accept edits automatically': the model receives the note, the session is in edit mode, the note sits under the plan in the file", async ({
    page,
    server,
  }) => {
    const NOTE = "Log every cache miss";
    const { shell, questions, card } = await planTask(page, server.url);
    await card.getByRole("button", { name: questions.copy["planReview.addFeedback"] }).click();
    await card
      .getByRole("textbox", { name: questions.copy["planReview.feedbackLabel"] })
      .fill(NOTE);
    await card.getByRole("button", { name: questions.copy["planReview.approveOptions"] }).click();
    await expect(
      card.getByRole("radio", { name: questions.copy["planReview.option.default"] }),
    ).toBeChecked();
    await expect(card.getByText(questions.copy["planReview.defaultMark"])).toBeVisible();
    const edit = questions.copy["planReview.option.edit"];
    await card.getByRole("radio", { name: edit }).check();
    await card.getByRole("button", { name: edit, exact: true }).click();

    await expect(card).toHaveCount(0);
    await shell.expectMode("edit");
    const exit = page.getByTestId("entry-tool").filter({ hasText: "ExitPlanMode" });
    await exit.locator("summary").click();
    await expect(exit.locator("pre").last()).toContainText(NOTE);
    await expect(exit.locator("pre").last()).toContainText("edit mode");

    const sessionId = sessionIdOf(page);
    const file = join(
      plansDir(server.workspace),
      `plan-${sessionId.replace(/[^A-Za-z0-9_-]/g, "-")}.md`,
    );
    const saved = readFileSync(file, "utf8");
    expect(saved.startsWith(PLAN!.trimEnd())).toBe(true);
    expect(saved).toContain(`## Notes given with the approval\n\n${NOTE}`);
  });

  test("[V6] edit a step, then approve: the plan file holds the edit and the model is told with a diff", async ({
    page,
    server,
  }) => {
    const { shell, questions, card } = await planTask(page, server.url);
    await card.getByRole("button", { name: questions.copy["planReview.editPlan"] }).click();
    const box = card.getByRole("textbox", { name: questions.copy["planReview.editLabel"] });
    const edited = PLAN!.replace(
      "2. Route the price lookup through it.",
      "2. Route only the price lookup through it.",
    );
    await box.fill(edited);
    await expect(card.getByText(questions.copy["planReview.editedMark"])).toBeVisible();
    await questions.planButton(card, "approve").click();
    await expect(card).toHaveCount(0);
    await shell.expectMode("build");

    const exit = page.getByTestId("entry-tool").filter({ hasText: "ExitPlanMode" });
    await exit.locator("summary").click();
    await expect(exit.locator("pre").last()).toContainText(
      "+2. Route only the price lookup through it.",
    );
    const files = readdirSync(plansDir(server.workspace));
    expect(readFileSync(join(plansDir(server.workspace), files[0]!), "utf8")).toBe(edited);
  });

  test("[P10] Refuse without feedback ends the turn: no plan file, still in plan mode", async ({
    page,
    server,
  }) => {
    const { shell, questions, card } = await planTask(page, server.url);
    await questions.planButton(card, "refuse").click();
    await expect(card).toHaveCount(0);
    await expect(page.getByTestId("composer-stop")).toHaveCount(0);
    await expect(shell.page.getByTestId("entry-plan-decided").last().locator("summary")).toHaveText(
      "Revision 1 · refused",
    );
    await expect(shell.assistantMessages.filter({ hasText: "Approved" })).toHaveCount(0);
    await shell.expectMode("plan");
    expect(existsSync(plansDir(server.workspace))).toBe(false);
  });

  test("[P9] Refuse with feedback: the feedback is the user's message, plan mode stays, the revised plan comes back for review", async ({
    page,
    server,
  }) => {
    const { shell, questions, card } = await planTask(page, server.url);
    await card.getByRole("button", { name: questions.copy["planReview.addFeedback"] }).click();
    await card
      .getByRole("textbox", { name: questions.copy["planReview.feedbackLabel"] })
      .fill(FEEDBACK);
    await questions.planButton(card, "refuse").click();

    await expect(shell.userMessages.filter({ hasText: FEEDBACK })).toBeVisible();
    await shell.expectMode("plan");
    const revised = questions.planCard(REVIEW);
    await expect(
      revised.getByRole("heading", { name: "Plan: cache the price lookups (revised)" }),
    ).toBeVisible();
    expect(existsSync(plansDir(server.workspace))).toBe(false);

    // X4: the revised plan is revision 2, with the feedback revision 1 got and its changes.
    await expect(revised.getByText("Revision 2")).toBeVisible();
    await expect(revised.getByRole("listitem").filter({ hasText: FEEDBACK })).toBeVisible();
    await revised.getByRole("button", { name: "Show changes since revision 1" }).click();
    const body = revised.getByRole("region", { name: questions.copy["planReview.body"] });
    await expect(
      body.locator("ins").filter({ hasText: "3. Cover both with tests." }),
    ).toBeVisible();
    await expect(body.locator("del").filter({ hasText: "## Steps" })).toBeVisible();

    await questions.planButton(revised, "approve").click();
    await shell.expectMode("build");
    const files = readdirSync(plansDir(server.workspace));
    expect(files).toHaveLength(1);
    expect(readFileSync(join(plansDir(server.workspace), files[0]!), "utf8")).toBe(REVISED_PLAN);
  });

  test("[I7] Chat about it closes the card, puts focus in the composer and stays in plan mode", async ({
    page,
    server,
  }) => {
    const { shell, questions, card } = await planTask(page, server.url);
    await questions.planButton(card, "chat").click();
    await expect(card).toHaveCount(0);
    await expect(shell.composer).toBeFocused();
    await expect(page.getByTestId("composer-stop")).toHaveCount(0);
    await shell.expectMode("plan");
    await expect(page.getByTestId("entry-plan-decided").last().locator("summary")).toHaveText(
      "Revision 1 · set aside to chat",
    );
  });

  test("[P2] Shift+Tab in the message box cycles plan → build → edit → yolo → plan", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    await shell.open(server.url);
    await shell.newSession();
    await shell.expectMode("build");
    await shell.composer.focus();
    for (const mode of ["edit", "yolo", "plan", "build"]) {
      await shell.composer.press("Shift+Tab");
      await shell.expectMode(mode);
    }
    await expect(shell.composer).toBeFocused();
    await shell.command("/mode plan");
    await shell.expectMode("plan");
  });
});

test.describe("a server started with --mode plan", () => {
  test.use({ scenario: "planReview", serverArgs: ["--mode", "plan"] });

  test("[P2] new sessions start in plan mode", async ({ page, server }) => {
    const shell = new ShellPage(page);
    await shell.open(server.url);
    await shell.newSession();
    await shell.expectMode("plan");
    await shell.send(TASK);
    await expect(new QuestionsPage(page).planCard(REVIEW)).toBeVisible();
  });
});

test.describe("the bundled demo", () => {
  test("[P2][I3][P8] a task walks the whole lane: plan mode, a question, the plan review, then an approved write", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    const questions = new QuestionsPage(page);
    await shell.startSession(server.url, "add a notes file for newcomers");

    await shell.expectMode("plan");
    await expect(questions.flow).toBeVisible();
    await questions.option("Project map").click();
    await questions.submit.click();

    const card = questions.planCard(REVIEW);
    await expect(
      card.getByRole("heading", { name: "Plan: a notes file for newcomers" }),
    ).toBeVisible();
    await questions.planButton(card, "approve").click();

    await shell.expectMode("build");
    await page.getByRole("button", { name: questions.copy["permission.allowOnce"] }).click();
    await expect(
      shell.assistantMessages.last().getByRole("heading", { name: "Done" }),
    ).toBeVisible();
    expect(readFileSync(join(server.workspace, "plangate-demo.md"), "utf8")).toMatch(/^# Welcome/);
  });
});
