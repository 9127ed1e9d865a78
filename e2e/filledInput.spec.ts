import type { Page } from "@playwright/test";
import Database from "better-sqlite3";
import { expect, test } from "./fixtures.ts";
import { modelEcho, QuestionsPage } from "./pages/questions.ts";
import { ShellPage } from "./pages/shell.ts";
import type { PlangateServer } from "./server.ts";

const DATABASE = "Which database should the service use?";

test.use({ scenario: "questions", serverArgs: ["--no-build"] });

function sessionIdOf(page: Page): string {
  const match = /#\/s\/(.+)$/.exec(page.url());
  if (!match?.[1]) throw new Error(`no session in ${page.url()}`);
  return decodeURIComponent(match[1]);
}

function kindsOf(server: PlangateServer, sessionId: string): string[] {
  const db = new Database(server.dbPath, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare("SELECT kind FROM entries WHERE session_id = ? ORDER BY seq")
      .all(sessionId) as { kind: string }[];
    return rows.map((row) => row.kind);
  } finally {
    db.close();
  }
}

/**
 * Leaves the log as a kill -9 right after the answer was stored leaves it: the answer is the
 * last entry, the call has no result. (The answer is written and the handler runs in the same
 * tick, so a signal cannot land between them; the rows after the answer are removed instead.)
 */
function cutAfterAnswer(server: PlangateServer, sessionId: string): void {
  const db = new Database(server.dbPath, { fileMustExist: true });
  try {
    const { seq } = db
      .prepare(
        "SELECT max(seq) AS seq FROM entries WHERE session_id = ? AND kind = 'interaction.resolved'",
      )
      .get(sessionId) as { seq: number };
    db.transaction(() => {
      db.prepare("DELETE FROM entries WHERE session_id = ? AND seq > ?").run(sessionId, seq);
      db.prepare("UPDATE sessions SET last_seq = ? WHERE id = ?").run(seq, sessionId);
    })();
  } finally {
    db.close();
  }
}

/** Answers the first question with SQLite and skips the other two. */
async function answerDatabaseOnly(questions: QuestionsPage): Promise<void> {
  await questions.waitForFlow();
  await questions.option("SQLite").check();
  await questions.next.click();
  await questions.skip.click();
  await questions.skip.click();
  await questions.flow.getByRole("button", { name: "Submit with 2 skipped" }).click();
  await expect(questions.flow).toBeHidden();
}

test("[Q3][Q5] the answer becomes the call's input: the handler runs after it and the model gets what it made", async ({
  page,
  server,
}) => {
  const shell = new ShellPage(page);
  const questions = new QuestionsPage(page);
  await shell.startSession(server.url, "Ask me a batch of questions");
  await answerDatabaseOnly(questions);
  const echo = await modelEcho(page);
  expect(echo).toContain("The user answered 1 of 3 questions:");
  expect(echo).toContain(`- ${DATABASE}\n  → SQLite`);
  const kinds = kindsOf(server, sessionIdOf(page));
  // The handler ran once, after the answer was stored.
  expect(kinds.filter((kind) => kind === "tool.result")).toHaveLength(1);
  expect(kinds.indexOf("interaction.resolved")).toBeLessThan(kinds.indexOf("tool.result"));
});

test("[Q5][A7] killed between the answer and the tool result, the call completes once after the restart, from the stored answer", async ({
  page,
  server,
}) => {
  const shell = new ShellPage(page);
  const questions = new QuestionsPage(page);
  await shell.startSession(server.url, "Ask me a batch of questions");
  const sessionId = sessionIdOf(page);
  await answerDatabaseOnly(questions);
  await modelEcho(page);

  const port = server.port;
  await server.stop("SIGKILL");
  cutAfterAnswer(server, sessionId);
  expect(kindsOf(server, sessionId).at(-1)).toBe("interaction.resolved");
  await server.start(port);

  // A fresh tab on the restarted server: the turn resumed and the call ran from the answer.
  await page.goto(`${server.url}#/s/${encodeURIComponent(sessionId)}`);
  await page.reload();
  await shell.waitConnected();
  const echo = await modelEcho(page);
  expect(echo).toContain(`- ${DATABASE}\n  → SQLite`);
  await expect(questions.flow).toHaveCount(0);
  await expect(
    page.getByTestId("entry-assistant").filter({ hasText: "Model received:" }),
  ).toHaveCount(1);
  const kinds = kindsOf(server, sessionId);
  expect(kinds.filter((kind) => kind === "interaction.requested")).toHaveLength(1);
  expect(kinds.filter((kind) => kind === "interaction.resolved")).toHaveLength(1);
  expect(kinds.filter((kind) => kind === "tool.result")).toHaveLength(1);
  expect(kinds.at(-1)).toBe("turn.ended");
});
