import type { Locator, Page } from "@playwright/test";
import type { StoredEntry } from "../src/protocol/index.ts";
import { TestClient } from "../src/server/testing/wsClient.ts";
import { expect, test } from "./fixtures.ts";
import { ShellPage } from "./pages/shell.ts";
import type { PlangateServer } from "./server.ts";

test.use({ scenario: "autocontinue" });

const QUESTION = "Which colour should the button be?";
const NONE_ANSWERED = "The user left every question unanswered.";

/** The pending question card above the composer, as a user finds it. */
function questionCard(page: Page): Locator {
  return page.getByRole("region", { name: "Questions from the agent" });
}

async function askQuestion(shell: ShellPage): Promise<Locator> {
  await shell.newSession();
  await shell.send("Please ask me something");
  const card = questionCard(shell.page);
  await expect(card.getByText(QUESTION)).toBeVisible();
  return card;
}

test.describe("with a short countdown", () => {
  // Grace 2 s, deadline 6 s: long enough to look before the chip on a busy machine, short
  // enough to wait out.
  test.use({ serverArgs: ["--no-build", "--grace-ms", "2000", "--deadline-ms", "6000"] });

  test("[A2] the countdown stays hidden during the grace, then shows as a timer", async ({
    page,
    server,
  }) => {
    // The page's clock is stepped by hand around the server's visibleAt, so a 0.5 s grace
    // cannot pass for a 2 s one.
    await page.clock.install();
    const shell = new ShellPage(page);
    await shell.open(server.url);
    const card = await askQuestion(shell);
    const counting = await serverCounting(server);
    expect(counting.visibleAt - counting.startedAt).toBe(2_000);
    const timer = card.getByRole("timer");

    await page.clock.pauseAt(counting.visibleAt - 300);
    await expect(card.getByText(QUESTION)).toBeVisible();
    await expect(timer).toHaveCount(0);
    // The chip redraws once a second, so a second and a bit after visibleAt it must show.
    await page.clock.runFor(1_300);
    await expect(timer).toBeVisible();
    await expect(timer).toHaveText(/Continues in 0:0[1-5]/);
  });

  test.describe("on a stepped server clock", () => {
    test.use({ steppedClock: true });

    test("[A3][X2] an unanswered question continues on its own at its deadline, not before; a late answer still reaches the agent", async ({
      page,
      server,
    }) => {
      const shell = new ShellPage(page);
      await shell.open(server.url);
      await askQuestion(shell);
      const { deadlineAt } = await serverCounting(server);

      await server.clock.advanceTo(deadlineAt - 1);
      expect(await serverResolutions(server)).toEqual([]);
      await server.clock.advance(1);
      expect(await serverResolutions(server)).toMatchObject([
        { at: deadlineAt, entry: { outcome: { type: "answered", answers: {}, auto: true } } },
      ]);

      const echo = shell.assistantMessages.filter({ hasText: "The question tool said:" });
      await expect(echo).toContainText(NONE_ANSWERED);
      await expect(questionCard(page)).toHaveCount(0);
      const notice = page
        .getByTestId("entry-resolved")
        .filter({ hasText: "Unanswered — continued automatically" });
      await expect(notice).toBeVisible();

      await notice.getByRole("button", { name: "Answer now" }).click();
      const late = notice.getByRole("region", { name: "Questions from the agent" });
      await late.getByRole("radio", { name: "Red" }).check();
      await late.getByRole("button", { name: "Submit" }).click();
      await expect(notice.getByRole("status")).toHaveText(
        "Your late answer was sent to the agent.",
      );
      // W11: focus goes on to the message box, not the page body.
      await expect(shell.composer).toBeFocused();

      const reply = shell.assistantMessages.filter({ hasText: "Late answer received." });
      await expect(reply).toContainText("Which colour should the button be?");
      await expect(reply).toContainText("Red");
      await expect(page.getByTestId("entry-synthetic")).toHaveCount(1);
    });

    test("[A4] picking an option pauses the countdown for good", async ({ page, server }) => {
      const shell = new ShellPage(page);
      await shell.open(server.url);
      const card = await askQuestion(shell);
      const { deadlineAt } = await serverCounting(server);
      await card.getByRole("radio", { name: "Red" }).check();
      await expect(card.getByRole("timer")).toHaveText("Paused");
      await expect.poll(async () => (await serverCountdowns(server)).at(-1)?.phase).toBe("paused");

      // Well past the deadline it had: nothing may resolve on its own.
      await server.clock.advanceTo(deadlineAt + 60_000);
      expect(await serverResolutions(server)).toEqual([]);
      expect((await serverCountdowns(server)).at(-1)).toMatchObject({ phase: "paused" });
      await expect(card.getByRole("timer")).toHaveText("Paused");
      await expect(page.getByTestId("entry-resolved")).toHaveCount(0);
      await expect(card.getByRole("radio", { name: "Red" })).toBeChecked();
    });
  });

  test("[A5] the auto-continue switch works in both languages and persists", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    await shell.open(server.url);
    await page.getByTestId("settings-button").click();
    const english = page.getByRole("switch", { name: "Auto-continue questions" });
    await expect(english).toHaveAttribute("aria-checked", "true");

    await page.getByTestId("language-select").selectOption("zh-CN");
    const chinese = page.getByRole("switch", { name: "问题自动继续" });
    await expect(chinese).toHaveAttribute("aria-checked", "true");
    await chinese.click();
    await expect(chinese).toHaveAttribute("aria-checked", "false");
    await expect(chinese).toContainText("关");

    await page.reload();
    await shell.waitConnected();
    await expect(page.getByRole("switch", { name: "问题自动继续" })).toHaveAttribute(
      "aria-checked",
      "false",
    );
    await page.getByTestId("language-select").selectOption("en");
    await expect(english).toHaveAttribute("aria-checked", "false");
    await expect(english).toContainText("Off");

    await page.getByRole("button", { name: "Back to the conversation" }).click();
    const card = await askQuestion(shell);
    // A1/A5: the server decided when the question reached the head: it will never count.
    await expect
      .poll(async () =>
        (await serverEntries(server)).flatMap(({ entry }) =>
          entry.kind === "interaction.countdown" ? [entry.countdown.phase] : [],
        ),
      )
      .toEqual(["ineligible"]);
    await expect(card.getByRole("timer")).toHaveCount(0);
    await expect(page.getByTestId("entry-resolved")).toHaveCount(0);
  });

  test("[X3] a second tab follows the first tab's picks, then shows 'answered elsewhere'", async ({
    page,
    server,
    context,
  }) => {
    const shell = new ShellPage(page);
    await shell.open(server.url);
    await shell.newSession();
    // The second tab opens first, so the question's short countdown is not spent on loading it.
    const other = await context.newPage();
    await other.goto(page.url());
    await new ShellPage(other).waitConnected();

    await shell.send("Please ask me something");
    const card = questionCard(page);
    const otherCard = questionCard(other);
    await expect(otherCard.getByText(QUESTION)).toBeVisible();
    await expect(otherCard.getByRole("radio", { name: "Red" })).not.toBeChecked();

    await card.getByRole("radio", { name: "Red" }).check();
    await expect(card.getByRole("timer")).toHaveText("Paused");
    await expect(otherCard.getByRole("radio", { name: "Red" })).toBeChecked();
    await expect(otherCard.getByRole("timer")).toHaveText("Paused");

    // A tab opened later resumes the same draft too.
    const third = await context.newPage();
    await third.goto(page.url());
    await expect(questionCard(third).getByRole("radio", { name: "Red" })).toBeChecked();
    await third.close();

    await card.getByRole("button", { name: "Submit" }).click();
    await expect(other.getByRole("status").filter({ hasText: "Answered elsewhere" })).toBeVisible();
    await expect(otherCard).toHaveCount(0);
    await expect(page.getByText("Answered elsewhere")).toHaveCount(0);
    await other.close();
  });

  test("[W4][X5] a hidden tab gets a title badge and a notification, then another before the countdown runs out", async ({
    page,
    server,
  }) => {
    await page.addInitScript(() => {
      const notes: { title: string; body: string }[] = [];
      let permission: NotificationPermission = "default";
      let hidden = false;
      Object.assign(window, {
        __notes: notes,
        __setHidden(next: boolean) {
          hidden = next;
          document.dispatchEvent(new Event("visibilitychange"));
        },
      });
      Object.defineProperty(document, "visibilityState", {
        configurable: true,
        get: () => (hidden ? "hidden" : "visible"),
      });
      class RecordingNotification {
        static get permission() {
          return permission;
        }
        static async requestPermission() {
          permission = "granted";
          return permission;
        }
        onclick: (() => void) | null = null;
        onclose: (() => void) | null = null;
        constructor(title: string, options: NotificationOptions = {}) {
          notes.push({ title, body: options.body ?? "" });
        }
        close() {}
      }
      Object.assign(window, { Notification: RecordingNotification });
    });
    const notes = () =>
      page.evaluate(() => (window as unknown as { __notes: { body: string }[] }).__notes);
    const setHidden = (hidden: boolean) =>
      page.evaluate(
        (next) => (window as unknown as { __setHidden(h: boolean): void }).__setHidden(next),
        hidden,
      );

    // The page's clock: the second notice is stepped to, not waited for.
    await page.clock.install();
    const shell = new ShellPage(page);
    await shell.open(server.url);
    await page.getByTestId("settings-button").click();
    await page.getByRole("button", { name: "Allow notifications" }).click();
    await expect(page.getByTestId("notifications-state")).toHaveText("Allowed");
    await page.getByRole("button", { name: "Back to the conversation" }).click();

    await shell.newSession();
    await setHidden(true);
    await shell.send("Please ask me something");
    await expect(page).toHaveTitle("(1) plangate");
    await expect
      .poll(notes)
      .toEqual([{ title: "The agent has a question for you", body: QUESTION }]);

    // X5: the second notice comes when the countdown shows, before anything resolves.
    await page.clock.runFor(2_000);
    await expect.poll(async () => (await notes()).length).toBe(2);
    const second = (await notes())[1];
    expect(second?.body).toMatch(/continues on its own in 0:0[1-5]\.$/);
    await expect(page.getByTestId("entry-resolved")).toHaveCount(0);

    await setHidden(false);
    await expect(page).toHaveTitle("plangate");
  });
});

/** A session's log as the server holds it, read over the wire protocol by a second client. */
async function serverEntries(server: PlangateServer): Promise<StoredEntry[]> {
  const wsUrl = `${server.origin.replace(/^http/, "ws")}/ws?token=${server.token}`;
  const { client, welcome } = await TestClient.greeted(wsUrl, { Origin: server.origin });
  try {
    const sessionId = welcome.sessions[0]?.id ?? "";
    client.send({ type: "session.open", sessionId });
    return (await client.next("snapshot")).entries;
  } finally {
    client.close();
  }
}

/** Every countdown state the server logged, oldest first. */
async function serverCountdowns(server: PlangateServer) {
  return (await serverEntries(server)).flatMap(({ entry }) =>
    entry.kind === "interaction.countdown" ? [entry.countdown] : [],
  );
}

/** The resolutions the server logged, with when (server ms) it wrote them. */
async function serverResolutions(server: PlangateServer) {
  return (await serverEntries(server)).filter(({ entry }) => entry.kind === "interaction.resolved");
}

/** The countdown (server ms) of the question that is counting now. */
async function serverCounting(server: PlangateServer) {
  const counting = (await serverCountdowns(server)).flatMap((countdown) =>
    countdown.phase === "counting" ? [countdown] : [],
  );
  const last = counting.at(-1);
  if (last === undefined) throw new Error("no question is counting");
  return last;
}

/** The deadline (server ms) of the question that is counting now. */
async function serverDeadline(server: PlangateServer): Promise<number> {
  return (await serverCounting(server)).deadlineAt;
}

/**
 * Steps the server's clock, then pins the page's Date to it (plus the browser's own skew): the
 * chip then reads the server's time exactly, with no real time in between.
 */
async function stepServerAndPage(
  page: Page,
  server: PlangateServer,
  ms: number,
  browserSkewMs = 0,
): Promise<void> {
  await page.clock.setFixedTime((await server.clock.advance(ms)) + browserSkewMs);
}

test.describe("with a long countdown", () => {
  test.use({
    steppedClock: true,
    serverArgs: ["--no-build", "--grace-ms", "300", "--deadline-ms", "60000"],
  });

  test("[A6][W3] a reload mid-count shows the same remaining time", async ({ page, server }) => {
    await page.clock.setFixedTime(server.clock.now());
    const shell = new ShellPage(page);
    await shell.open(server.url);
    const card = await askQuestion(shell);
    const timer = card.getByRole("timer");
    // 42.7 s left: the chip rounds up.
    await stepServerAndPage(page, server, 17_300);
    await expect(timer).toHaveText(/Continues in 0:43/);

    await page.reload();
    await shell.waitConnected();
    await expect(timer).toHaveText(/Continues in 0:43/);
  });

  for (const skewMinutes of [-7, 7]) {
    test(`[A2] the countdown follows the server's clock when the browser's is ${Math.abs(skewMinutes)} minutes ${skewMinutes < 0 ? "slow" : "fast"}`, async ({
      page,
      server,
    }) => {
      const skewMs = skewMinutes * 60_000;
      await page.clock.setFixedTime(server.clock.now() + skewMs);
      const shell = new ShellPage(page);
      await shell.open(server.url);
      expect((await page.evaluate(() => Date.now())) - server.clock.now()).toBe(skewMs);

      const card = await askQuestion(shell);
      await stepServerAndPage(page, server, 300, skewMs);
      // 59.7 s left by the server's clock; by the browser's it would be 7 minutes off.
      await expect(card.getByRole("timer")).toHaveText(/Continues in 1:00/);
    });
  }
});

test.describe("across a server restart mid-count", () => {
  test.use({
    steppedClock: true,
    serverArgs: ["--no-build", "--grace-ms", "300", "--deadline-ms", "25000"],
  });

  test("[A7] the deadline survives kill -9: same remaining time, continues at the original deadline", async ({
    page,
    server,
  }) => {
    await page.clock.setFixedTime(server.clock.now());
    const shell = new ShellPage(page);
    await shell.open(server.url);
    const card = await askQuestion(shell);
    const timer = card.getByRole("timer");
    const { deadlineAt } = await serverCounting(server);
    await stepServerAndPage(page, server, 10_000);
    await expect(timer).toHaveText(/Continues in 0:15/);

    await server.restart("SIGKILL");
    expect(await serverDeadline(server)).toBe(deadlineAt);
    await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "open", {
      timeout: 20_000,
    });
    await expect(timer).toHaveText(/Continues in 0:15/);

    await stepServerAndPage(page, server, deadlineAt - 1 - server.clock.now());
    expect(await serverResolutions(server)).toEqual([]);
    await expect(timer).toHaveText(/Continues in 0:01/);
    await server.clock.advance(1);
    expect((await serverResolutions(server)).map(({ at }) => at)).toEqual([deadlineAt]);
    const echo = shell.assistantMessages.filter({ hasText: "The question tool said:" });
    await expect(echo).toContainText(NONE_ANSWERED);
  });
});

test.describe("across a server that was down past the deadline", () => {
  test.use({
    steppedClock: true,
    serverArgs: ["--no-build", "--grace-ms", "300", "--deadline-ms", "3000"],
  });

  test("[A7] a deadline that passed while the server was down resolves at start-up", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    await shell.open(server.url);
    await askQuestion(shell);
    const { deadlineAt } = await serverCounting(server);

    const port = server.port;
    await server.stop("SIGKILL");
    // Time passes while it is down; the next start begins there.
    await server.clock.advanceTo(deadlineAt + 500);
    await server.start(port);
    await expect
      .poll(async () => (await serverResolutions(server)).map(({ at }) => at))
      .toEqual([deadlineAt + 500]);

    const echo = shell.assistantMessages.filter({ hasText: "The question tool said:" });
    await expect(echo).toContainText(NONE_ANSWERED, { timeout: 20_000 });
    await expect(
      page
        .getByTestId("entry-resolved")
        .filter({ hasText: "Unanswered — continued automatically" }),
    ).toBeVisible();
    await expect(questionCard(page)).toHaveCount(0);
  });
});

const regionName = { en: "Questions from the agent", "zh-CN": "智能体的提问" } as const;

for (const locale of ["en", "zh-CN"] as const) {
  test.describe(`golden in ${locale}`, () => {
    test.use({
      locale,
      serverArgs: ["--no-build", "--grace-ms", "0", "--deadline-ms", "300000"],
    });

    test(`[A2] a question with its countdown showing looks right (${locale})`, async ({
      page,
      server,
    }) => {
      await page.clock.install();
      const shell = new ShellPage(page);
      await shell.startSession(server.url, "Please ask me something");
      const card = page.getByRole("region", { name: regionName[locale] });
      const timer = card.getByRole("timer");
      await expect(timer).toHaveText(/\d:\d{2}/);

      // Stop the clock, then pin the digits: the wording and layout stay the app's own.
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
      await timer.evaluate((chip) => {
        for (const node of chip.childNodes) {
          if (node.nodeType === Node.TEXT_NODE) {
            node.textContent = (node.textContent ?? "").replace(/\d+:\d{2}/, "4:00");
          }
        }
      });
      await expect(timer).toContainText("4:00");
      await expect(card).toHaveScreenshot(`countdown-visible-${locale}.png`);
    });
  });
}
