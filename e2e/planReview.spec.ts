import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { parse } from "yaml";
import { expect, test } from "./fixtures.ts";
import { connectAgent } from "./mcpAgent.ts";
import { type QuestionLocale, QuestionsPage } from "./pages/questions.ts";
import { ShellPage } from "./pages/shell.ts";
import type { PlangateServer } from "./server.ts";

// V4/V5 (approve with a note and an option) and V6 (edit, then approve) are pinned in
// planMode.spec.ts; this spec adds V7, V8, W9 after an edit, the MCP lane (V10) and the
// phone goldens of the approve options and the editor.

const TASK = "cache the price lookups";
const QUESTION = "How long does a cached price stay valid?";
const ANSWER = "The cache keeps each price for five minutes";
// Long grace and deadline keep countdown chips out of screenshots.
const STILL = ["--no-build", "--grace-ms", "3600000", "--deadline-ms", "3600000"];

interface ScenarioFile {
  turns: { steps: { tools?: { name: string; input?: { plan?: string } }[] }[] }[];
}
/** The first plan the scenario submits, read from the file itself. */
const PLAN = (
  parse(
    readFileSync(join(import.meta.dirname, "scenarios", "planReview.yaml"), "utf8"),
  ) as ScenarioFile
).turns[1]!.steps.flatMap((step) => step.tools ?? []).find((tool) => tool.name === "ExitPlanMode")!
  .input!.plan!;

const plansDir = (workspace: string) => join(workspace, ".zcode", "plans");

async function planTask(page: Page, url: string, locale: QuestionLocale = "en") {
  const shell = new ShellPage(page);
  const questions = new QuestionsPage(page, locale);
  await shell.open(url);
  await shell.newSession();
  await shell.command(`/plan ${TASK}`);
  await shell.expectMode("plan");
  const card = questions.planCard(questions.copy["planReview.cardName"]);
  await expect(card.getByRole("heading", { name: "Plan: cache the price lookups" })).toBeVisible();
  return { shell, questions, card };
}

function decided(page: Page): Locator {
  return page.getByTestId("entry-plan-decided");
}

function modelPicker(page: Page): Locator {
  return page.getByRole("combobox").first();
}

test.describe("plan review with the scripted model", () => {
  test.use({ scenario: "planReview", serverArgs: STILL });

  test("[V7] ask about the plan: the question reaches the model, its answer is in the transcript, and the same plan returns marked unchanged", async ({
    page,
    server,
  }) => {
    const { shell, questions, card } = await planTask(page, server.url);
    await card.getByRole("button", { name: questions.copy["planReview.ask"] }).click();
    const box = card.getByRole("textbox", { name: questions.copy["planReview.askLabel"] });
    await expect(box).toBeFocused();
    await box.fill(QUESTION);
    await card.getByRole("button", { name: questions.copy["planReview.askSend"] }).click();

    // W9: revision 1 stays in the transcript, named by the question, not as refused.
    await expect(decided(page).first().locator("summary")).toHaveText(
      `Revision 1 · question asked: ${QUESTION}`,
    );
    await expect(decided(page).first()).toHaveAttribute("data-outcome", "asked");
    await expect(shell.assistantMessages.filter({ hasText: ANSWER })).toBeVisible();
    const result = page.getByTestId("entry-tool").filter({ hasText: "ExitPlanMode" }).first();
    await result.locator("summary").click();
    await expect(result.locator("pre").last()).toContainText(
      "The user has a question about your plan",
    );
    await expect(result.locator("pre").last()).toContainText(QUESTION);

    const again = questions.planCard(questions.copy["planReview.cardName"]);
    await expect(again.getByText("Revision 2")).toBeVisible();
    await expect(again.getByText("Unchanged since revision 1")).toBeVisible();
    // The question was no feedback, so revision 2 lists none.
    await expect(again.getByText("Feedback on revision 1:")).toHaveCount(0);
    await shell.expectMode("plan");
    await expect(shell.userMessages.filter({ hasText: QUESTION })).toHaveCount(0);

    await questions.planButton(again, "approve").click();
    await shell.expectMode("build");
    const files = readdirSync(plansDir(server.workspace));
    expect(readFileSync(join(plansDir(server.workspace), files[0]!), "utf8")).toBe(PLAN);
  });

  test("[W9][V6] a plan edited before approval stays in the transcript as the edited text that was approved", async ({
    page,
    server,
  }) => {
    const { questions, card } = await planTask(page, server.url);
    await card.getByRole("button", { name: questions.copy["planReview.editPlan"] }).click();
    const edited = PLAN.replace(
      "2. Route the price lookup through it.",
      "2. Route only the price lookup through it, EDITED.",
    );
    await card.getByRole("textbox", { name: questions.copy["planReview.editLabel"] }).fill(edited);
    await questions.planButton(card, "approve").click();
    await expect(card).toHaveCount(0);

    const entry = decided(page);
    await expect(entry).toHaveCount(1);
    await expect(entry.locator("summary")).toContainText(
      `Revision 1 · ${questions.copy["planDecided.approvedEdited"]}`,
    );
    await expect(entry.locator("summary")).toContainText(".zcode/plans/");
    await entry.locator("summary").click();
    const body = entry.getByRole("region");
    await expect(body.getByText("Route only the price lookup through it, EDITED.")).toBeVisible();
    await expect(body.getByText("2. Route the price lookup through it.")).toHaveCount(0);
  });
});

test.describe("the bundled demo", () => {
  test.use({ serverArgs: STILL });

  test("[V7][W5] the demo model answers a question about its plan and submits the same plan again, marked unchanged", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    const questions = new QuestionsPage(page);
    await shell.startSession(server.url, "add a notes file for newcomers");
    await questions.option("Project map").click();
    await questions.submit.click();

    const card = questions.planCard(questions.copy["planReview.cardName"]);
    await expect(
      card.getByRole("heading", { name: "Plan: a notes file for newcomers" }),
    ).toBeVisible();
    await card.getByRole("button", { name: questions.copy["planReview.ask"] }).click();
    await card
      .getByRole("textbox", { name: questions.copy["planReview.askLabel"] })
      .fill("Will it touch the README?");
    // W5: the open question box passes axe like the rest of the card.
    const axe = await new AxeBuilder({ page }).include("main").analyze();
    expect(axe.violations.map((violation) => violation.id)).toEqual([]);
    await card.getByRole("button", { name: questions.copy["planReview.askSend"] }).click();

    await expect(shell.assistantMessages.filter({ hasText: "Good question." })).toBeVisible();
    await expect(card.getByText("Revision 2")).toBeVisible();
    await expect(card.getByText("Unchanged since revision 1")).toBeVisible();
    await shell.expectMode("plan");
  });
});

// Goldens: regenerate with `npx playwright test e2e/planReview.spec.ts -g goldens --update-snapshots`.
for (const locale of ["en", "zh-CN"] as const) {
  test.describe(`goldens at 390×844 (${locale})`, () => {
    test.use({
      scenario: "planReview",
      serverArgs: STILL,
      locale,
      viewport: { width: 390, height: 844 },
    });

    test(`[V5][V6][W6] the plan card on a phone: approve options open, then edit mode (${locale})`, async ({
      page,
      server,
    }) => {
      const { questions, card } = await planTask(page, server.url, locale);
      await card.getByRole("button", { name: questions.copy["planReview.approveOptions"] }).click();
      await expect(
        card.getByRole("radio", { name: questions.copy["planReview.option.default"] }),
      ).toBeChecked();
      await expect(questions.planButton(card, "approve")).toBeInViewport({ ratio: 1 });
      await expect(page).toHaveScreenshot(`plan-review-approve-options-phone-${locale}.png`, {
        mask: [modelPicker(page)],
      });

      await card.getByRole("button", { name: questions.copy["planReview.approveOptions"] }).click();
      await card.getByRole("button", { name: questions.copy["planReview.editPlan"] }).click();
      const editor = card.getByRole("textbox", { name: questions.copy["planReview.editLabel"] });
      await expect(editor).toBeVisible();
      await editor.press("Control+End");
      await editor.pressSequentially("\n3. Measure the hit rate.");
      await expect(card.getByText(questions.copy["planReview.editedMark"])).toBeVisible();
      await expect(questions.planButton(card, "approve")).toBeInViewport({ ratio: 1 });
      await expect(page).toHaveScreenshot(`plan-review-edit-phone-${locale}.png`, {
        mask: [modelPicker(page)],
      });
    });
  });

  // The approve options at 1280×800 are decision-approve-options-* (decisionSurfaces.spec.ts).
  test.describe(`goldens at 1280×800 (${locale})`, () => {
    test.use({
      scenario: "planReview",
      serverArgs: STILL,
      locale,
      viewport: { width: 1280, height: 800 },
    });

    test(`[V6][W6] the plan card in edit mode with a step typed at the end (${locale})`, async ({
      page,
      server,
    }) => {
      const { questions, card } = await planTask(page, server.url, locale);
      await card.getByRole("button", { name: questions.copy["planReview.editPlan"] }).click();
      const editor = card.getByRole("textbox", { name: questions.copy["planReview.editLabel"] });
      await editor.press("Control+End");
      await editor.pressSequentially("\n3. Measure the hit rate.");
      await expect(editor).toHaveValue(`${PLAN}\n3. Measure the hit rate.`);
      await expect(card.getByText(questions.copy["planReview.editedMark"])).toBeVisible();
      await expect(questions.planButton(card, "approve")).toBeInViewport({ ratio: 1 });
      await expect(page).toHaveScreenshot(`plan-review-edit-desktop-${locale}.png`, {
        mask: [modelPicker(page)],
      });
    });
  });
}

interface ReviewReply {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const MCP_PLAN = `# Plan: rename the config loader

1. Rename \`loadConfig\` to \`readConfig\`.
2. Update the callers.

<script>window.pwned = true</script>
<img src="https://evil.example/pixel.png" onerror="window.pwned = true">

[docs](javascript:window.pwned=true) · ![badge](https://evil.example/badge.svg)
`;

test.describe("review_plan over MCP with the SDK client", () => {
  test.use({ serverArgs: STILL });

  /** V8: the agent's first revision, "Plan A", on the card; `settled` records its reply. */
  async function planAOnCard(page: Page, server: PlangateServer) {
    const { agent, questions } = await openAgentSession(page, server);
    const settled: string[] = [];
    const first = agent
      .callTool({ name: "review_plan", arguments: { plan: "# Plan A\n\n1. Old step.\n" } })
      .then((reply) => {
        settled.push("A");
        return reply as ReviewReply;
      });
    await page.getByTestId("session-item").filter({ hasText: "plan-agent" }).click();
    const card = questions.planCard(questions.copy["planReview.cardName"]);
    await expect(card.getByRole("heading", { name: "Plan A" })).toBeVisible();
    return { agent, questions, settled, first, card };
  }

  async function openAgentSession(page: Page, server: PlangateServer) {
    const shell = new ShellPage(page);
    await shell.open(server.url);
    const agent = await connectAgent(server, "plan-agent");
    return { shell, agent, questions: new QuestionsPage(page) };
  }

  test("[V10][V4][V5][V6] approve with a note and an option, then another with an edit: the agent gets both as structured content and as text", async ({
    page,
    server,
  }) => {
    const foreign: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith("http") && url.origin !== server.origin) foreign.push(url.href);
    });
    const { agent, questions } = await openAgentSession(page, server);
    const first = agent.callTool({ name: "review_plan", arguments: { plan: MCP_PLAN } });
    await page.getByTestId("session-item").filter({ hasText: "plan-agent" }).click();
    const card = questions.planCard(questions.copy["planReview.cardName"]);
    await expect(
      card.getByRole("heading", { name: "Plan: rename the config loader" }),
    ).toBeVisible();

    // R5: the agent's markdown renders without raw HTML, unsafe links or remote images.
    const body = card.getByRole("region", { name: questions.copy["planReview.body"] });
    await expect(body.locator("script, img, [onerror]")).toHaveCount(0);
    await expect(body.locator('a[href^="javascript:" i]')).toHaveCount(0);
    await expect(body.getByText("docs")).toBeVisible();
    // R8: a remote image is a link to open, never fetched.
    await expect(body.getByRole("link", { name: "badge" })).toHaveAttribute(
      "href",
      "https://evil.example/badge.svg",
    );
    expect(foreign).toEqual([]);
    expect(await page.evaluate(() => (window as { pwned?: boolean }).pwned)).toBeUndefined();

    const NOTE = "Keep a deprecated alias for one release";
    await card.getByRole("button", { name: questions.copy["planReview.addFeedback"] }).click();
    await card
      .getByRole("textbox", { name: questions.copy["planReview.feedbackLabel"] })
      .fill(NOTE);
    await card.getByRole("button", { name: questions.copy["planReview.approveOptions"] }).click();
    const build = questions.copy["planReview.option.build"];
    await card.getByRole("radio", { name: build }).check();
    await card.getByRole("button", { name: build, exact: true }).click();

    const approved = (await first) as ReviewReply;
    expect(approved.isError ?? false).toBe(false);
    expect(approved.structuredContent).toEqual({ verdict: "approve", option: "build", note: NOTE });
    expect(approved.content[0]?.text).toMatch(/^The user approved the plan\. Carry it out\./);
    expect(approved.content[0]?.text).toContain("asked before each edit");
    expect(approved.content[0]?.text).toContain(`Their note: ${NOTE}`);

    const second = agent.callTool({
      name: "review_plan",
      arguments: { plan: "# Plan: add a test\n\n1. Test `readConfig`.\n" },
    });
    const revised = questions.planCard(questions.copy["planReview.cardName"]);
    await expect(revised.getByText("Revision 2")).toBeVisible();
    await revised.getByRole("button", { name: questions.copy["planReview.editPlan"] }).click();
    const EDITED = "# Plan: add a test\n\n1. Test `readConfig` with a missing file too.\n";
    await revised
      .getByRole("textbox", { name: questions.copy["planReview.editLabel"] })
      .fill(EDITED);
    await questions.planButton(revised, "approve").click();

    const edited = (await second) as ReviewReply;
    expect(edited.structuredContent).toEqual({
      verdict: "approve",
      option: "default",
      editedPlan: EDITED,
    });
    expect(edited.content[0]?.text).toContain(
      `They edited it first; carry out their version:\n\n${EDITED}`,
    );
    await agent.close();
  });

  test("[V10][V1][V2] comments given by keyboard over an agent's plan: request changes returns them with their anchors, in plan order, as structured content and as text", async ({
    page,
    server,
  }) => {
    const { agent, questions } = await openAgentSession(page, server);
    const plan =
      "# Plan: rename the config loader\n\n## Steps\n\n1. Rename `loadConfig` to `readConfig`.\n2. Update the callers.\n";
    const reviewed = agent.callTool({ name: "review_plan", arguments: { plan } });
    await page.getByTestId("session-item").filter({ hasText: "plan-agent" }).click();
    const card = questions.planCard(questions.copy["planReview.cardName"]);
    const body = card.getByRole("region", { name: questions.copy["planReview.body"] });
    // Rendered, not the plain text shown while the markdown code loads: its blocks take comments.
    await expect(body.getByRole("heading", { name: "Steps" })).toBeVisible();

    // Blocks: the title, Steps, step 1, step 2. The later step first: the answer is in plan order.
    const comment = async (keys: string[], text: string) => {
      await body.focus();
      for (const key of keys) await page.keyboard.press(key);
      await page.keyboard.press("c");
      await expect(card.getByRole("textbox", { name: /^Your comment on/ })).toBeFocused();
      await page.keyboard.type(text);
      await page.keyboard.press("Control+Enter");
      await expect(body.getByText(text)).toBeVisible();
      await expect(body).toBeFocused();
    };
    await comment(["j", "j", "j", "j"], "Keep the old name as an alias");
    await comment(["k"], "Name the file it lives in");
    await card
      .getByRole("button", {
        name: questions.copy["planReview.requestChanges_other"].replace("{{count}}", "2"),
      })
      .click();

    const reply = (await reviewed) as ReviewReply;
    const structured = reply.structuredContent as {
      verdict: string;
      comments: {
        text: string;
        anchor: { quote: string; headingPath: string[]; lines: { start: number; end: number } };
      }[];
    };
    expect(structured.verdict).toBe("feedback");
    expect(structured.comments.map((c) => [c.text, c.anchor.quote, c.anchor.lines])).toEqual([
      ["Name the file it lives in", "Rename loadConfig to readConfig.", { start: 5, end: 5 }],
      ["Keep the old name as an alias", "Update the callers.", { start: 6, end: 6 }],
    ]);
    expect(structured.comments[0]?.anchor.headingPath).toEqual([
      "Plan: rename the config loader",
      "Steps",
    ]);
    const text = reply.content[0]?.text ?? "";
    expect(text).toContain(
      '<comment number="1" lines="5" section="Plan: rename the config loader > Steps">',
    );
    expect(text.indexOf("Name the file it lives in")).toBeLessThan(
      text.indexOf("Keep the old name as an alias"),
    );
    await agent.close();
  });

  test("[V7][V10] a question over MCP: the agent gets it as no verdict; its answer shows in the transcript and the same plan sent again is marked unchanged", async ({
    page,
    server,
  }) => {
    const { shell, agent, questions } = await openAgentSession(page, server);
    const plan = "# Plan: one step\n\n1. Do it.\n";
    const asked = agent.callTool({ name: "review_plan", arguments: { plan } });
    await page.getByTestId("session-item").filter({ hasText: "plan-agent" }).click();
    const card = questions.planCard(questions.copy["planReview.cardName"]);
    await card.getByRole("button", { name: questions.copy["planReview.ask"] }).click();
    await card.getByRole("textbox", { name: questions.copy["planReview.askLabel"] }).fill(QUESTION);
    await card.getByRole("button", { name: questions.copy["planReview.askSend"] }).click();
    const reply = (await asked) as ReviewReply;
    expect(reply.structuredContent).toEqual({ verdict: "question", question: QUESTION });
    expect(reply.content[0]?.text).toContain(`<user-question>\n${QUESTION}\n</user-question>`);

    const again = agent.callTool({ name: "review_plan", arguments: { plan, answer: ANSWER } });
    await expect(shell.assistantMessages.filter({ hasText: ANSWER })).toBeVisible();
    await expect(card.getByText("Unchanged since revision 1")).toBeVisible();
    await questions.planButton(card, "approve").click();
    expect(((await again) as ReviewReply).structuredContent).toMatchObject({ verdict: "approve" });
    await agent.close();
  });

  test("[V8] a newer revision arrives while the old card is being approved: the approval is refused with a receipt, the card says the plan changed, nothing else changes", async ({
    page,
    server,
  }) => {
    const { agent, questions, settled, first, card } = await planAOnCard(page, server);

    const second = agent
      .callTool({ name: "review_plan", arguments: { plan: "# Plan B\n\n1. New step.\n" } })
      .then((reply) => reply as ReviewReply);
    await expect(questions.waitingHint(1)).toBeVisible();
    await questions.planButton(card, "approve").click();

    await expect(card.getByRole("alert")).toHaveText(questions.copy["receipt.PLAN_CHANGED"]);
    await expect(card.getByRole("heading", { name: "Plan A" })).toBeVisible();
    await expect(questions.planButton(card, "approve")).toBeEnabled();
    await expect(decided(page)).toHaveCount(0);
    expect(settled).toEqual([]);

    // The old revision can still be refused; the newer one is approved as usual.
    await questions.planButton(card, "refuse").click();
    expect((await first).structuredContent).toEqual({ verdict: "refuse" });
    const newer = questions.planCard(questions.copy["planReview.cardName"]);
    await expect(newer.getByRole("heading", { name: "Plan B" })).toBeVisible();
    await questions.planButton(newer, "approve").click();
    expect((await second).structuredContent).toMatchObject({ verdict: "approve" });
    await agent.close();
  });

  test("[W1] switching sessions away from a long plan shows the other session at once, and coming back shows the whole plan, still answerable", async ({
    page,
    server,
  }) => {
    const { shell, agent, questions } = await openAgentSession(page, server);
    await shell.newSession();
    const steps = 80;
    const plan = Array.from(
      { length: steps },
      (_, i) => `## Step ${i + 1}\n\nMove \`part${i}.ts\` onto the new loader and drop its cache.`,
    ).join("\n\n");
    const reviewed = agent.callTool({ name: "review_plan", arguments: { plan } });
    const agentSession = page.getByTestId("session-item").filter({ hasText: "plan-agent" });
    await agentSession.click();
    const card = questions.planCard(questions.copy["planReview.cardName"]);
    await expect(card.locator(".md-block")).toHaveCount(steps);

    // Clicked in the page, and read once React has committed the click, before any next task:
    // the plan's pane is still there, hidden, to be taken down in steps, not in this task.
    const afterClick = await page.evaluate(async () => {
      const items = [...document.querySelectorAll<HTMLElement>("[data-testid=session-item]")];
      const other = items.find((item) => !item.textContent?.includes("plan-agent"));
      other?.querySelector<HTMLElement>("button")?.click() ?? other?.click();
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      return {
        hiddenPanes: document.querySelectorAll(".session-pane[hidden]").length,
        hiddenHeight: document.querySelector(".session-pane[hidden]")?.getBoundingClientRect()
          .height,
        blocks: document.querySelectorAll(".md-block").length,
      };
    });
    expect(afterClick).toEqual({ hiddenPanes: 1, hiddenHeight: 0, blocks: steps });
    await expect(page.locator(".session-pane:not([hidden])")).toHaveCount(1);
    await expect(
      page.getByRole("button", { name: questions.copy["planReview.approve"] }),
    ).toHaveCount(0);
    await expect(page.locator(".session-pane")).toHaveCount(1);
    await expect(shell.composer).toBeVisible();

    await agentSession.click();
    await expect(card.locator(".md-block")).toHaveCount(steps);
    await expect(card.getByRole("heading", { name: `Step ${steps}` })).toBeAttached();
    await questions.planButton(card, "approve").click();
    expect(((await reviewed) as ReviewReply).structuredContent).toMatchObject({
      verdict: "approve",
    });
    await agent.close();
  });

  test("[V8] two tabs on one plan, a newer revision waiting: approving the old one in either tab is refused with a receipt there, and neither tab nor the agent sees a decision", async ({
    page,
    server,
  }) => {
    const { agent, questions, settled, first, card } = await planAOnCard(page, server);
    // Another tab of the same person on the same session.
    const other = await page.context().newPage();
    await new ShellPage(other).open(server.url);
    const otherQuestions = new QuestionsPage(other);
    await other.getByTestId("session-item").filter({ hasText: "plan-agent" }).click();
    const otherCard = otherQuestions.planCard(otherQuestions.copy["planReview.cardName"]);
    await expect(otherCard.getByRole("heading", { name: "Plan A" })).toBeVisible();

    const second = agent
      .callTool({ name: "review_plan", arguments: { plan: "# Plan B\n\n1. New step.\n" } })
      .then((reply) => reply as ReviewReply);
    // The second tab has seen the newer revision arrive; it approves the old one anyway.
    await expect(otherQuestions.waitingHint(1)).toBeVisible();
    await otherQuestions.planButton(otherCard, "approve").click();
    await expect(otherCard.getByRole("alert")).toHaveText(
      otherQuestions.copy["receipt.PLAN_CHANGED"],
    );
    // So does the first tab: the same receipt, and still nothing decided anywhere.
    await expect(questions.waitingHint(1)).toBeVisible();
    await questions.planButton(card, "approve").click();
    await expect(card.getByRole("alert")).toHaveText(questions.copy["receipt.PLAN_CHANGED"]);
    for (const tab of [page, other]) await expect(decided(tab)).toHaveCount(0);
    await expect(card.getByRole("heading", { name: "Plan A" })).toBeVisible();
    await expect(otherCard.getByRole("heading", { name: "Plan A" })).toBeVisible();
    expect(settled).toEqual([]);

    // Refusing the old revision in one tab brings the newer one to both.
    await otherQuestions.planButton(otherCard, "refuse").click();
    expect((await first).structuredContent).toEqual({ verdict: "refuse" });
    for (const tabQuestions of [questions, otherQuestions]) {
      const newer = tabQuestions.planCard(tabQuestions.copy["planReview.cardName"]);
      await expect(newer.getByRole("heading", { name: "Plan B" })).toBeVisible();
    }
    await questions
      .planButton(questions.planCard(questions.copy["planReview.cardName"]), "approve")
      .click();
    expect((await second).structuredContent).toMatchObject({ verdict: "approve" });
    await other.close();
    await agent.close();
  });
});
