import type { Page } from "@playwright/test";
import { TestClient } from "../src/server/testing/wsClient.ts";
import { expect, test } from "./fixtures.ts";
import { modelEcho, QuestionsPage } from "./pages/questions.ts";
import { ShellPage } from "./pages/shell.ts";
import type { PlangateServer } from "./server.ts";

const DATABASE = "Which database should the service use?";
const FEATURES = "Which features ship in the first release?";
const NAMING = "What should the new module be called?";
const REVIEW = "Review this implementation plan";

test.use({ scenario: "questions", serverArgs: ["--no-build"] });

test.describe("generic flow", () => {
  // Each test asks in a session of its own and reads only that session.
  test.use({ sharedServer: true });

  test("[Q6][Q4] a batch answered by digit, checkboxes, Other and a skip reaches the model as the some-skipped text", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    const questions = new QuestionsPage(page);
    await shell.startSession(server.url, "Ask me a batch of questions");
    await questions.waitForFlow();

    // Question 1, keyboard only: a digit picks, Enter moves on.
    await expect(questions.pager(1, 3)).toBeVisible();
    await expect(questions.question(DATABASE)).toBeVisible();
    await expect(questions.option("Postgres (Recommended)")).toHaveAccessibleDescription(
      "Robust, and already part of the stack",
    );
    await questions.skip.focus();
    await page.keyboard.press("2");
    await expect(questions.option("SQLite")).toBeChecked();
    await expect(questions.option("SQLite")).toBeFocused();
    await page.keyboard.press("Enter");

    // Question 2: two boxes and a custom answer together.
    await expect(questions.pager(2, 3)).toBeVisible();
    await expect(questions.question(FEATURES)).toBeVisible();
    await questions.option("Search").check();
    await questions.option("Sharing").check();
    await questions.otherText.fill("Audit log");
    await expect(questions.other).toBeChecked();
    await questions.next.click();

    // Question 3: markdown detail, then skipped, which leads to the review page (W10).
    await expect(questions.pager(3, 3)).toBeVisible();
    const naming = questions.question(NAMING);
    await expect(naming.getByText("invoices", { exact: true })).toBeVisible();
    await expect(
      naming.getByRole("listitem").filter({ hasText: "matches the team" }),
    ).toBeVisible();
    await questions.skip.click();
    await questions.flow.getByRole("button", { name: "Submit with 1 skipped" }).click();

    await expect(questions.flow).toBeHidden();
    const echo = await modelEcho(page);
    expect(echo).toContain("The user answered 2 of 3 questions:");
    expect(echo).toContain(`- ${DATABASE}\n  → SQLite`);
    expect(echo).toContain(
      `- ${FEATURES}\n  → Search; Sharing; (in the user's own words) "Audit log"`,
    );
    expect(echo).toContain(`They skipped 1 question:\n- ${NAMING}`);
    expect(echo).not.toContain(`- ${NAMING}\n  →`);
    // U4: the line also names the device that answered.
    await expect(page.getByTestId("entry-resolved")).toHaveText(
      /^Answered: SQLite; Search, Sharing, Audit log · on \S.*$/,
    );
  });

  test("[Q8] × dismisses the whole batch and the model hears the user dismissed it", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    const questions = new QuestionsPage(page);
    await shell.startSession(server.url, "Ask me a batch of questions");
    await questions.waitForFlow();
    await questions.option("MySQL").check();
    await questions.dismiss.click();

    await expect(questions.flow).toBeHidden();
    const echo = await modelEcho(page);
    expect(echo).toContain("The user dismissed your questions without answering them.");
    expect(echo).not.toContain("MySQL");
    await expect(page.getByTestId("entry-resolved")).toHaveText(/^Questions dismissed · on \S.*$/);
  });

  test("[Q7] two questions in one step queue: the hint says one more waits, answering the first shows the second", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    const questions = new QuestionsPage(page);
    await shell.startSession(server.url, "Queue two questions");
    await questions.waitForFlow();

    await expect(
      questions.question("Which language should the command-line tool use?"),
    ).toBeVisible();
    await expect(questions.waitingHint(1)).toBeVisible();
    await questions.option("Go").check();
    await questions.submit.click();

    await expect(questions.question("Where should the tool be published?")).toBeVisible();
    await expect(questions.waitingHint(1)).toBeHidden();
    await questions.option("npm").check();
    await questions.submit.click();

    await expect(questions.flow).toBeHidden();
    const echo = await modelEcho(page);
    expect(echo).toContain("- Which language should the command-line tool use?\n  → Go");
    expect(echo).toContain("- Where should the tool be published?\n  → npm");
  });
});

test.describe("plan review", () => {
  test.use({ sharedServer: true });
  async function openReview(page: Page, server: PlangateServer) {
    const shell = new ShellPage(page);
    const questions = new QuestionsPage(page);
    await shell.startSession(server.url, "Please review my plan");
    const card = questions.planCard(REVIEW);
    await expect(card).toBeVisible();
    return { shell, questions, card };
  }

  test("[I4][I8][I5] a plan review takes the composer as the plan card, not the generic flow", async ({
    page,
    server,
  }) => {
    const { questions, card } = await openReview(page, server);

    await expect(card).toHaveAccessibleName(REVIEW);
    await expect(page.getByRole("heading", { name: REVIEW })).toHaveCount(0);
    await expect(card.getByText("Plan review", { exact: true })).toBeVisible();
    await expect(card.getByRole("heading", { name: "Add invoice export" })).toBeVisible();
    await expect(card.getByRole("table")).toBeVisible();

    // The generic flow did not claim it: no pager, option rows, skip or custom answer.
    await expect(questions.flow).toHaveCount(0);
    await expect(page.getByText(/^\d+ \/ \d+$/)).toHaveCount(0);
    await expect(page.getByRole("radio")).toHaveCount(0);
    await expect(page.getByRole("checkbox")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Skip this question" })).toHaveCount(0);
    await expect(page.getByRole("textbox", { name: "Custom answer" })).toHaveCount(0);

    await expect(card.getByRole("button")).toHaveText([
      "Edit plan",
      "Add feedback",
      "Ask about the plan",
      "Approve options",
      "Chat about it",
      "Refuse",
      "Approve",
    ]);
    await expect(questions.planButton(card, "approve")).toHaveAttribute(
      "title",
      "Leave plan mode and start carrying out this plan.",
    );
    await expect(questions.planButton(card, "chat")).not.toHaveAttribute("title");
  });

  test("[I5] Approve answers with the asker's Approve label and the model hears the approval", async ({
    page,
    server,
  }) => {
    const { questions, card } = await openReview(page, server);
    await questions.planButton(card, "approve").click();

    await expect(card).toBeHidden();
    const echo = await modelEcho(page);
    expect(echo).toMatch(/^The user approved your plan\./);
    expect(echo).toContain("## Approved Plan:\n## Add invoice export");
    await expect(page.getByTestId("entry-plan-decided")).toHaveAttribute(
      "data-outcome",
      "approved",
    );
  });

  test("[I5] Refuse answers with the asker's Refuse label and the turn ends with the refusal", async ({
    page,
    server,
  }) => {
    const { shell, questions, card } = await openReview(page, server);
    await questions.planButton(card, "refuse").click();

    await expect(card).toBeHidden();
    await expect(page.getByTestId("entry-plan-decided").locator("summary")).toHaveText(
      "Revision 1 · refused",
    );
    await expect(exitPlanModeEntry(page)).toContainText(
      "The user refused the plan without comment.",
    );
    await expect(shell.assistantMessages.filter({ hasText: "Model received:" })).toHaveCount(0);
  });

  test("[I7] Chat about it dismisses the review to talk and puts focus in the composer", async ({
    page,
    server,
  }) => {
    const { shell, questions, card } = await openReview(page, server);
    await questions.planButton(card, "chat").click();

    await expect(card).toBeHidden();
    await expect(shell.composer).toBeFocused();
    await expect(page.getByTestId("entry-plan-decided").locator("summary")).toHaveText(
      "Revision 1 · set aside to chat",
    );
    await expect(exitPlanModeEntry(page)).toContainText(
      "set the plan review aside because they want to discuss it",
    );
    await expect(exitPlanModeEntry(page)).toContainText("Stay in plan mode");
  });
});

test.describe("wire", () => {
  test("[R3] duplicate, late and never-offered answers get rejected receipts and change nothing", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    const questions = new QuestionsPage(page);
    await shell.startSession(server.url, "Ask me a batch of questions");
    await questions.waitForFlow();

    const { client, welcome } = await TestClient.greeted(wsUrl(server), { Origin: server.origin });
    try {
      const sessionId = welcome.sessions[0]?.id ?? "";
      client.send({ type: "session.open", sessionId });
      const snapshot = await client.next("snapshot");
      const requested = snapshot.entries.find(
        ({ entry }) => entry.kind === "interaction.requested",
      );
      if (requested?.entry.kind !== "interaction.requested") throw new Error("no pending question");
      const id = requested.entry.request.interactionId;
      const answer = async (interactionId: string, answers: unknown) => {
        client.send({ type: "interaction.answer", interactionId, answers });
        return client.next("receipt", (frame) => frame.interactionId === interactionId);
      };

      expect(await answer(id, { [DATABASE]: { labels: ["Oracle"] } })).toMatchObject({
        ok: false,
        code: "INVALID_ANSWER",
      });
      expect(await answer(id, { [DATABASE]: { labels: ["SQLite", "MySQL"] } })).toMatchObject({
        ok: false,
        code: "INVALID_ANSWER",
      });
      expect(await answer("int_never_asked", { [DATABASE]: { labels: ["SQLite"] } })).toMatchObject(
        { ok: false, code: "UNKNOWN_INTERACTION" },
      );
      // Nothing changed: the question still waits, in the page and in the log.
      await expect(questions.question(DATABASE)).toBeVisible();
      expect(resolutions(client, sessionId, id)).toHaveLength(0);

      expect(await answer(id, { [DATABASE]: { labels: ["SQLite"] } })).toEqual({
        type: "receipt",
        interactionId: id,
        ok: true,
      });
      expect(await answer(id, { [DATABASE]: { labels: ["MySQL"] } })).toMatchObject({
        ok: false,
        code: "ALREADY_ANSWERED",
      });
      client.send({ type: "interaction.cancel", interactionId: id });
      expect(await client.next("receipt", (frame) => frame.interactionId === id)).toMatchObject({
        ok: false,
        code: "ALREADY_ANSWERED",
      });

      await expect(questions.flow).toBeHidden();
      const echo = await modelEcho(page);
      expect(echo).toContain(`The user answered 1 of 3 questions:\n- ${DATABASE}\n  → SQLite`);
      expect(echo).not.toContain("MySQL");
      await expect(page.getByTestId("entry-resolved")).toHaveCount(1);
      await expect(page.getByTestId("entry-resolved")).toHaveText("Answered: SQLite");
      expect(resolutions(client, sessionId, id)).toEqual([
        { type: "answered", answers: { [DATABASE]: { labels: ["SQLite"] } }, auto: false },
      ]);

      // An answer to a batch that was dismissed: resolved without an answer, so NOT_PENDING.
      await shell.send("Another batch, please");
      await questions.waitForFlow();
      const second = await client.next(
        "event",
        (frame) =>
          frame.entry.kind === "interaction.requested" && frame.entry.request.interactionId !== id,
      );
      if (second.entry.kind !== "interaction.requested") throw new Error("no second question");
      const secondId = second.entry.request.interactionId;
      await questions.dismiss.click();
      await expect(questions.flow).toBeHidden();
      expect(await answer(secondId, { [DATABASE]: { labels: ["SQLite"] } })).toMatchObject({
        ok: false,
        code: "NOT_PENDING",
      });
      expect(resolutions(client, sessionId, secondId)).toEqual([
        expect.objectContaining({ type: "cancelled" }),
      ]);
    } finally {
      client.close();
    }
  });
});

function wsUrl(server: PlangateServer): string {
  return `${server.origin.replace(/^http/, "ws")}/ws?token=${server.token}`;
}

/** Every resolution of one interaction the client has seen, in the snapshot or since. */
function resolutions(client: TestClient, sessionId: string, interactionId: string) {
  const fromSnapshots = client.frames.flatMap((frame) =>
    frame.type === "snapshot" && frame.session.id === sessionId
      ? frame.entries.map(({ entry }) => entry)
      : [],
  );
  const fromEvents = client.events(sessionId).map((frame) => frame.entry);
  return [...fromSnapshots, ...fromEvents].flatMap((entry) =>
    entry.kind === "interaction.resolved" && entry.interactionId === interactionId
      ? [entry.outcome]
      : [],
  );
}

// Goldens: regenerate with `npx playwright test e2e/questions.spec.ts --update-snapshots`.
// Long grace and deadline keep the countdown chip out of the picture.
const STILL = ["--no-build", "--grace-ms", "3600000", "--deadline-ms", "3600000"];

for (const locale of ["en", "zh-CN"] as const) {
  test.describe(`goldens ${locale}`, () => {
    test.use({ locale, serverArgs: STILL });

    test(`[Q6] the waiting generic flow looks as committed (${locale})`, async ({
      page,
      server,
    }) => {
      const shell = new ShellPage(page);
      const questions = new QuestionsPage(page, locale);
      await shell.startSession(server.url, "Ask me a batch of questions");
      await questions.waitForFlow();
      await expect(questions.pager(1, 3)).toBeVisible();
      await expect(questions.flow).toHaveScreenshot(`generic-flow-waiting-${locale}.png`);
    });

    test(`[I5] the waiting plan-review card looks as committed (${locale})`, async ({
      page,
      server,
    }) => {
      const shell = new ShellPage(page);
      const questions = new QuestionsPage(page, locale);
      await shell.startSession(server.url, "Please review my plan");
      const card = questions.planCard(questions.copy["planReview.cardName"]);
      await expect(questions.planButton(card, "approve")).toBeVisible();
      await expect(card).toHaveScreenshot(`plan-review-card-waiting-${locale}.png`);
    });
  });
}

/** The ExitPlanMode call in the transcript; its text holds the result the model read. */
function exitPlanModeEntry(page: Page) {
  return page
    .getByTestId("entry-tool")
    .filter({ has: page.getByText("ExitPlanMode", { exact: true }) });
}
