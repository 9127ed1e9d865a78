import { expect, type Locator, type Page } from "@playwright/test";

/** The app shell as a user sees it: sessions, transcript, composer. */
export class ShellPage {
  readonly transcript: Locator;
  readonly composer: Locator;
  readonly assistantMessages: Locator;
  readonly userMessages: Locator;
  readonly toolCalls: Locator;
  readonly modeChip: Locator;
  /** U2: on a phone with a session open, the header's way to the session list (a drawer). */
  readonly sessionsToggle: Locator;
  readonly sessionsClose: Locator;

  constructor(readonly page: Page) {
    this.transcript = page.getByTestId("transcript");
    this.composer = page.getByTestId("composer-input");
    this.assistantMessages = page.getByTestId("entry-assistant");
    this.userMessages = page.getByTestId("entry-user");
    this.toolCalls = page.getByTestId("entry-tool");
    this.modeChip = page.getByTestId("mode-chip");
    this.sessionsToggle = page.getByTestId("sessions-toggle");
    this.sessionsClose = page.getByTestId("sessions-close");
  }

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.waitConnected();
  }

  async waitConnected(): Promise<void> {
    await expect(this.page.getByTestId("connection-status")).toHaveAttribute("data-status", "open");
  }

  async newSession(): Promise<void> {
    const before = await this.page.getByTestId("session-item").count();
    await this.page.getByTestId("new-session").click();
    await expect(this.page.getByTestId("session-item")).toHaveCount(before + 1);
    await expect(this.composer).toBeVisible();
  }

  /** What most lanes start with: the page opened, a new session, and a first prompt sent. */
  async startSession(url: string, prompt: string): Promise<void> {
    await this.open(url);
    await this.newSession();
    await this.send(prompt);
  }

  async send(text: string): Promise<void> {
    await this.composer.fill(text);
    await this.composer.press("Enter");
    await expect(this.userMessages.filter({ hasText: text }).last()).toBeVisible();
  }

  /** A slash command (`/plan task`, `/mode edit`): sent once the box empties. */
  async command(text: string): Promise<void> {
    await this.composer.fill(text);
    await this.composer.press("Enter");
    await expect(this.composer).toHaveValue("");
  }

  /** U2: a phone's open session keeps the list in a drawer; elsewhere the list is in view. */
  async showSessionList(): Promise<void> {
    if (await this.sessionsToggle.isVisible()) {
      await this.sessionsToggle.click();
      await expect(this.sessionsToggle).toHaveAttribute("aria-expanded", "true");
    }
  }

  /** P1: waits until the mode chip shows this mode (plan, build, edit, yolo, auto). */
  async expectMode(mode: string): Promise<void> {
    await expect(this.modeChip).toHaveAttribute("data-mode", mode);
  }
}
