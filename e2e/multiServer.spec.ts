import { startTestPostgres, type TestPostgres } from "../src/server/testing/testPostgres.ts";
import { expect, test } from "./fixtures.ts";
import { QuestionsPage } from "./pages/questions.ts";
import { ShellPage } from "./pages/shell.ts";
import { PlangateServer } from "./server.ts";

const REVIEW = "Review this implementation plan";

let postgres: TestPostgres;

test.beforeAll(async () => {
  postgres = await startTestPostgres();
});
test.afterAll(async () => {
  await postgres?.stop();
});

/**
 * S2: two real servers on one PostgreSQL and one workspace (so one stored token), a Chromium
 * page on each. The later `--db` and `--workspace` win over the ones the harness passes.
 */
test("[S2] a page on each of two servers shows the same plan card; approved on one, it leaves the other and both transcripts say so", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const database = await postgres.newDatabase();
  const scenario = "questions";
  const first = new PlangateServer({ scenario, args: ["--db", database] });
  await first.start();
  const second = new PlangateServer({
    scenario,
    args: ["--db", database, "--workspace", first.workspace],
  });
  try {
    await second.start();
    expect(second.token).toBe(first.token);

    const pageA = await browser.newPage();
    const pageB = await browser.newPage();
    const shellA = new ShellPage(pageA);
    await shellA.startSession(first.url, "Please review my plan");
    const cardA = new QuestionsPage(pageA).planCard(REVIEW);
    await expect(cardA).toBeVisible();
    const sessionId = decodeURIComponent(/#\/s\/([^/?]+)/.exec(pageA.url())?.[1] ?? "");
    expect(sessionId).not.toBe("");

    // The other server's page, opened on that session: the same card waits there.
    await new ShellPage(pageB).open(second.url);
    await pageB.goto(`${second.origin}/#/s/${encodeURIComponent(sessionId)}`);
    const questionsB = new QuestionsPage(pageB);
    const cardB = questionsB.planCard(REVIEW);
    await expect(cardB.getByRole("heading", { name: "Add invoice export" })).toBeVisible();

    await questionsB.planButton(cardA, "approve").click();
    await expect(cardA).toHaveCount(0);
    await expect(cardB).toHaveCount(0);
    for (const page of [pageA, pageB]) {
      await expect(page.getByTestId("entry-plan-decided")).toHaveAttribute(
        "data-outcome",
        "approved",
      );
    }
    await pageA.close();
    await pageB.close();
  } finally {
    await second.stop();
    await first.stop();
    second.dispose();
    first.dispose();
  }
});
