// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SessionEntry } from "../protocol/index.ts";
import { App } from "./App.tsx";
import {
  created,
  longPlan,
  planReviewRequest,
  snapshotFrame,
  stored,
  summary,
  welcomeFrame,
} from "./store/fixtures.ts";
import { renderShell } from "./testing/renderShell.tsx";
import { watchTeardown } from "./testing/teardownProbe.ts";

afterEach(() => {
  window.location.hash = "";
});

const twoSessions = welcomeFrame({
  sessions: [
    summary("old", { title: "Older work", createdAt: 1_000, pendingInteractions: 0 }),
    summary("new", { title: "Newer work", createdAt: 2_000, pendingInteractions: 2 }),
  ],
});

describe("App", () => {
  it("[W5] has nav, header and main landmarks", () => {
    renderShell(<App />, { frames: [twoSessions] });
    expect(screen.getByRole("navigation", { name: "Sessions" })).toBeInTheDocument();
    expect(screen.getByRole("banner")).toBeInTheDocument();
    expect(screen.getByRole("main")).toBeInTheDocument();
    expect(screen.getByTestId("connection-status")).toHaveTextContent("Connected");
  });

  it("[W1] lists sessions newest first with what waits in each", () => {
    renderShell(<App />, { frames: [twoSessions] });
    const rows = within(screen.getByTestId("session-list")).getAllByTestId("session-item");
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining("Newer work"),
      expect.stringContaining("Older work"),
    ]);
    expect(rows[0]).toHaveTextContent("2 waiting for you");
  });

  it("[W1] opens a session from the keyboard and puts it in the URL", async () => {
    const user = userEvent.setup();
    const { sent } = renderShell(<App />, { frames: [twoSessions] });
    const older = screen.getByRole("button", { name: /^Older work/ });
    older.focus();
    await user.keyboard("{Enter}");
    expect(sent).toEqual([{ type: "session.open", sessionId: "old" }]);
    expect(older).toHaveAttribute("aria-current", "page");
    expect(window.location.hash).toBe("#/s/old");
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Older work");
  });

  it("[W1] with no sessions at all (a first visit, or the last one deleted) the page invites starting one, and its button starts it", async () => {
    const user = userEvent.setup();
    const { sent } = renderShell(<App />, { frames: [welcomeFrame({ sessions: [] })] });
    const main = screen.getByRole("main");
    expect(within(main).getByRole("heading", { level: 2 })).toHaveTextContent("Start a session");
    await user.click(within(main).getByRole("button", { name: "New session" }));
    expect(sent).toEqual([{ type: "session.create" }]);
  });

  it("[W1][W2] with sessions but none open, the page asks to pick one (zh-CN)", () => {
    renderShell(<App />, { frames: [twoSessions], language: "zh-CN" });
    const main = screen.getByRole("main");
    expect(within(main).getByRole("heading", { level: 2 })).toHaveTextContent(
      "从上次停下的地方继续",
    );
    expect(within(main).queryByRole("button")).not.toBeInTheDocument();
  });

  it("[W1] creates a session and selects it when its snapshot arrives", async () => {
    const user = userEvent.setup();
    const { sent, client } = renderShell(<App />, { frames: [twoSessions] });
    await user.click(screen.getByTestId("new-session"));
    expect(sent).toEqual([{ type: "session.create" }]);
    act(() => client.receive(snapshotFrame("fresh", [stored(1, created)], { title: "Fresh" })));
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Fresh");
    expect(screen.getByTestId("composer-input")).toBeInTheDocument();
    expect(window.location.hash).toBe("#/s/fresh");
  });

  it("[W11] what is typed right after New session, before the server has made it, lands in its message box; Enter sends it; a Space does not press New session again", async () => {
    const user = userEvent.setup();
    const { sent, client } = renderShell(<App />, { frames: [twoSessions] });
    await user.click(screen.getByTestId("new-session"));
    await user.keyboard("add a notes file");
    expect(sent).toEqual([{ type: "session.create" }]);
    act(() => client.receive(snapshotFrame("fresh", [stored(1, created)], { title: "Fresh" })));
    const box = screen.getByTestId("composer-input");
    expect(box).toHaveFocus();
    expect(box).toHaveValue("add a notes file");
    expect(screen.queryByTestId("composer-stand-in")).not.toBeInTheDocument();

    await user.click(screen.getByTestId("new-session"));
    await user.keyboard("second task{Enter}");
    act(() => client.receive(snapshotFrame("later", [stored(1, created)], { title: "Later" })));
    const isDraft = (frame: (typeof sent)[number]) => frame.type === "composer.draft";
    expect(sent.filter((frame) => !isDraft(frame))).toEqual([
      { type: "session.create" },
      { type: "session.create" },
      expect.objectContaining({ type: "prompt", sessionId: "later", text: "second task" }),
    ]);
    // What was typed in the first session is kept as its draft (W14), once: by its 400 ms timer,
    // which a slow machine reaches before the second click, or else on leaving the session.
    expect(sent.filter(isDraft)).toEqual([
      { type: "composer.draft", sessionId: "fresh", text: "add a notes file" },
    ]);
    expect(screen.getByTestId("composer-input")).toHaveValue("");
  });

  it("[W11] a person who moves on while New session is on its way keeps the keyboard where they took it", async () => {
    const user = userEvent.setup();
    const { client } = renderShell(<App />, { frames: [twoSessions] });
    await user.click(screen.getByTestId("new-session"));
    await user.keyboard("half a thought");
    const settings = screen.getByRole("button", { name: "Settings" });
    settings.focus();
    act(() => client.receive(snapshotFrame("fresh", [stored(1, created)], { title: "Fresh" })));
    expect(settings).toHaveFocus();
    expect(screen.getByTestId("composer-input")).toHaveValue("half a thought");
  });

  it("[W1][W11] New session pressed in an empty session, which the server hands back, still gets what was typed meanwhile", async () => {
    const user = userEvent.setup();
    const { client } = renderShell(<App />, { frames: [twoSessions] });
    await user.click(screen.getByTestId("new-session"));
    act(() => client.receive(snapshotFrame("fresh", [stored(1, created)], { title: "Fresh" })));
    await user.click(screen.getByTestId("new-session"));
    await user.keyboard("typed meanwhile");
    act(() =>
      client.receive({
        ...snapshotFrame("fresh", [stored(1, created)], { title: "Fresh" }),
        created: true,
      } as Parameters<typeof client.receive>[0]),
    );
    const box = screen.getByTestId("composer-input");
    expect(box).toHaveValue("typed meanwhile");
    expect(box).toHaveFocus();
    expect(screen.queryByTestId("composer-stand-in")).not.toBeInTheDocument();
  });

  it("[W1] switching away from a session showing a long plan shows the other one at once and takes the plan down in steps", async () => {
    const user = userEvent.setup();
    const { container, client } = renderShell(<App />, { frames: [twoSessions] });
    await user.click(screen.getByRole("button", { name: /^Newer work/ }));
    const plan = planReviewRequest("r1", longPlan(120), "new");
    act(() =>
      client.receive(
        snapshotFrame(
          "new",
          [created, { kind: "interaction.requested", request: plan }].map((entry, i) =>
            stored(i + 1, entry as SessionEntry),
          ),
          { title: "Newer work" },
        ),
      ),
    );
    const blocks = () => container.querySelectorAll(".md-block").length;
    await waitFor(() => expect(blocks()).toBe(120));
    const removed = watchTeardown(container);

    // Synchronous, so the steps cannot have run before the first look.
    fireEvent.click(screen.getByRole("button", { name: /^Older work/ }));
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Older work");
    expect(container.querySelector("[data-leaving='new']")).toHaveAttribute("hidden");
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
    const shown = container.querySelectorAll(".session-pane:not([hidden])");
    expect([...shown].map((pane) => pane.getAttribute("data-session-pane"))).toEqual(["old"]);

    await waitFor(() => expect(container.querySelector("[data-leaving]")).toBeNull());
    removed.stop();
    expect(blocks()).toBe(0);
    expect(removed.perTask.length).toBeGreaterThan(2);
    expect(Math.max(...removed.perTask)).toBeLessThan(120 / 2);
  });

  it("[W1] switching away from a session without a long plan unmounts it at once", async () => {
    const user = userEvent.setup();
    const { container } = renderShell(<App />, { frames: [twoSessions] });
    await user.click(screen.getByRole("button", { name: /^Newer work/ }));
    await user.click(screen.getByRole("button", { name: /^Older work/ }));
    expect(container.querySelectorAll(".session-pane")).toHaveLength(1);
  });

  it("[W1] reaches the settings from the header and comes back", async () => {
    const user = userEvent.setup();
    renderShell(<App />, { frames: [twoSessions] });
    await user.click(screen.getByTestId("settings-button"));
    // The settings page's code loads on first use (issue 15).
    expect(
      await screen.findByRole("switch", { name: "Auto-continue questions" }),
    ).toBeInTheDocument();
    expect(window.location.hash).toBe("#/settings");
    await user.click(screen.getByRole("button", { name: "Back to the conversation" }));
    expect(screen.queryByRole("switch")).toBeNull();
  });

  it("[U1] opens the inbox from its link, its code loaded on first use", async () => {
    const user = userEvent.setup();
    renderShell(<App />, { frames: [twoSessions] });
    expect(screen.queryByTestId("inbox")).toBeNull();
    await user.click(screen.getByTestId("inbox-link"));
    expect(await screen.findByRole("heading", { name: "Waiting for you" })).toBeInTheDocument();
    expect(window.location.hash).toBe("#/inbox");
    expect(screen.getByTestId("inbox-link")).toHaveAttribute("aria-current", "page");
  });

  it("[W2] a zh-CN page loads only Chinese, and switching fetches English and shows it", async () => {
    const user = userEvent.setup();
    const { i18n } = renderShell(<App />, { frames: [twoSessions], language: "zh-CN" });
    expect(i18n.hasResourceBundle("en", "common")).toBe(false);
    await user.click(screen.getByTestId("settings-button"));
    const language = await screen.findByRole("combobox", { name: "语言" });
    await user.selectOptions(language, "en");
    expect(await screen.findByRole("button", { name: "New session" })).toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "Language" })).toHaveValue("en");
    expect(document.documentElement.lang).toBe("en");
  });

  it("[W2] the pages' copy is fetched with the page, not before the first screen", async () => {
    const user = userEvent.setup();
    const { i18n } = renderShell(<App />, {
      frames: [twoSessions],
      language: "zh-CN",
      firstScreenCopyOnly: true,
    });
    expect(screen.getByTestId("inbox-link")).toHaveTextContent("收件箱");
    expect(i18n.hasResourceBundle("zh-CN", "settings")).toBe(false);
    expect(i18n.hasResourceBundle("zh-CN", "inbox")).toBe(false);
    await user.click(screen.getByTestId("settings-button"));
    expect(await screen.findByRole("combobox", { name: "语言" })).toBeInTheDocument();
    expect(screen.getByTestId("session-title")).toHaveTextContent("设置");
    expect(i18n.hasResourceBundle("zh-CN", "settings")).toBe(true);
    expect(i18n.hasResourceBundle("zh-CN", "inbox")).toBe(false);
  });

  it("[W3] announces a lost connection with its attempt number", () => {
    const { store } = renderShell(<App />, { frames: [twoSessions] });
    act(() =>
      store.getState().setConnectionStatus({ status: "reconnecting", attempt: 3, retryAt: 0 }),
    );
    expect(screen.getByRole("status")).toHaveTextContent("Reconnecting… (attempt 3)");
    expect(screen.getByTestId("connection-status")).toHaveAttribute("data-status", "reconnecting");
    expect(screen.getByTestId("new-session")).toBeDisabled();
  });

  it("[W2][R2] a page older than its server (open across an update) says so in its own language, with a way to reload", () => {
    const { store } = renderShell(<App />, { frames: [twoSessions], language: "zh-CN" });
    act(() =>
      store.getState().setConnectionStatus({
        status: "closed",
        reason: "This server speaks protocol 4, the page speaks 3. Reload the page.",
        code: "PROTOCOL_MISMATCH",
      }),
    );
    const banner = screen.getByTestId("page-outdated");
    expect(banner).toHaveAttribute("role", "alert");
    // Chinese runs its sentences together: no space after the title's 。
    expect(banner.querySelector("p")?.textContent).toBe(
      "打开此页面之后，plangate 已更新。请刷新页面后继续。",
    );
    expect(within(banner).getByRole("button", { name: "刷新页面" })).toBeEnabled();
    expect(screen.getByTestId("connection-status")).toHaveTextContent("已断开：plangate 已更新");
    expect(document.body).not.toHaveTextContent("speaks protocol");
  });

  it("[W8][W2] a token no longer accepted is said once, title and what to do as two English sentences", () => {
    const { store } = renderShell(<App />, { frames: [twoSessions] });
    act(() => store.getState().setConnectionStatus({ status: "refused" }));
    const banner = screen.getByTestId("access-refused");
    expect(banner.querySelector("p")?.textContent).toMatch(
      /^This tab's access token is no longer accepted\. plangate was started with a new token/,
    );
    expect(screen.queryByRole("button", { name: "Reload" })).not.toBeInTheDocument();
  });

  it("[W2][R2] the server's words for an error that ends the link are not shown beside the page's own", () => {
    const { client } = renderShell(<App />, { frames: [twoSessions], language: "zh-CN" });
    act(() =>
      client.receive({
        type: "error",
        code: "PROTOCOL_MISMATCH",
        message: "This server speaks protocol 4, the page speaks 3. Reload the page.",
      }),
    );
    expect(screen.queryByTestId("server-error")).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent("speaks protocol");
  });

  it("[R3][W3] a server that cannot store says so beside the link, and why, until it can again", () => {
    const { client } = renderShell(<App />, { frames: [twoSessions] });
    const indicator = screen.getByTestId("connection-status");
    act(() =>
      client.receive({
        type: "storage.changed",
        health: { state: "failing", problem: "full" },
      }),
    );
    expect(indicator).toHaveTextContent("Connected, but changes cannot be saved");
    expect(indicator).toHaveAttribute("data-storage", "failing");
    const banner = screen.getByRole("status");
    expect(banner).toHaveTextContent("Changes cannot be saved right now.");
    expect(banner).toHaveTextContent(
      "The disk that holds plangate's sessions is full. Nothing shown here is lost.",
    );
    // A refusal during the outage is the banner's business, not a second alert.
    act(() =>
      client.receive({
        type: "error",
        code: "STORAGE_FAILED",
        message: "The server's storage failed.",
        ref: "prompt",
      }),
    );
    expect(screen.queryByRole("alert")).toBeNull();
    act(() => client.receive({ type: "storage.changed", health: { state: "ok" } }));
    expect(indicator).toHaveTextContent(/^Connected$/);
    expect(screen.getByRole("status")).toBeEmptyDOMElement();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("[R3][W2] the storage state and a storage refusal in Chinese, never the server's English", () => {
    const { client } = renderShell(<App />, { frames: [twoSessions], language: "zh-CN" });
    act(() =>
      client.receive({
        type: "error",
        code: "STORAGE_FAILED",
        message: "The server's storage failed, so nothing of this request was stored.",
        ref: "prompt",
      }),
    );
    expect(screen.getByRole("alert")).toHaveTextContent("服务器未能保存这项更改。");
    expect(screen.getByRole("alert")).not.toHaveTextContent("storage");
    act(() =>
      client.receive({
        type: "storage.changed",
        health: { state: "failing", problem: "unreachable" },
      }),
    );
    expect(screen.getByTestId("connection-status")).toHaveTextContent("已连接，但无法保存更改");
    expect(screen.getByRole("status")).toHaveTextContent(
      "目前无法保存更改。plangate 无法连接到它的会话数据库。已显示的内容不会丢失。",
    );
  });

  it("[R3][W3] a lost link is what the banner says while reconnecting; the next attempt hears the store afresh", () => {
    const { client, store } = renderShell(<App />, { frames: [twoSessions] });
    act(() =>
      client.receive({
        type: "storage.changed",
        health: { state: "failing", problem: "readOnly" },
      }),
    );
    act(() =>
      store.getState().setConnectionStatus({ status: "reconnecting", attempt: 2, retryAt: 0 }),
    );
    expect(screen.getByRole("status")).toHaveTextContent(
      /^Connection lost\. Reconnecting… \(attempt 2\)$/,
    );
    expect(screen.queryByTestId("storage-banner")).toBeNull();
    // The next attempt: nothing stale; a server whose store cannot even be read says so at once.
    act(() => store.getState().setConnectionStatus({ status: "connecting" }));
    expect(screen.queryByTestId("storage-banner")).toBeNull();
    act(() =>
      client.receive({
        type: "storage.changed",
        health: { state: "failing", problem: "unreachable" },
      }),
    );
    expect(screen.getByTestId("storage-banner")).toHaveTextContent(
      "plangate cannot reach its session database.",
    );
    expect(screen.getByTestId("connection-status")).toHaveTextContent("Connecting…");
  });

  it("[W2] shows the shell in Chinese", () => {
    renderShell(<App />, { frames: [twoSessions], language: "zh-CN" });
    expect(screen.getByRole("button", { name: "新建会话" })).toBeInTheDocument();
    expect(screen.getByTestId("settings-button")).toHaveTextContent("设置");
  });

  it("shows a server error until it is dismissed", async () => {
    const user = userEvent.setup();
    const { client } = renderShell(<App />, { frames: [twoSessions] });
    act(() =>
      client.receive({ type: "error", code: "SESSION_BUSY", message: "A turn is running" }),
    );
    expect(screen.getByRole("alert")).toHaveTextContent("A turn is running");
    await user.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("[W1] follows the back button to another session", async () => {
    const { sent } = renderShell(<App />, { frames: [twoSessions] });
    act(() => {
      window.location.hash = "#/s/new";
    });
    await waitFor(() => expect(sent).toEqual([{ type: "session.open", sessionId: "new" }]));
    expect(screen.getByRole("button", { name: /^Newer work/ })).toHaveAttribute(
      "aria-current",
      "page",
    );
  });

  it("[W1] applies the theme the server holds", () => {
    renderShell(<App />, {
      frames: [welcomeFrame({ settings: { autoContinue: true, theme: "dark" } })],
    });
    expect(document.documentElement.dataset.theme).toBe("dark");
  });
});

/** A window as narrow as a phone: the shell's stacked layout (layout.css, max-width 560px). */
function phoneWindow() {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: query === "(max-width: 560px)",
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

describe("App on a phone", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("[U2][W6] an open session has the screen; the list is in a drawer the header opens, Escape closes, and choosing a session leaves", async () => {
    phoneWindow();
    const user = userEvent.setup();
    const { container, sent } = renderShell(<App />, { frames: [twoSessions] });
    const app = container.querySelector(".app");
    // No session open: the list is the page's way in, and nothing hides it.
    expect(app).not.toHaveAttribute("data-sessions");
    expect(screen.queryByTestId("sessions-toggle")).toBeNull();

    await user.click(screen.getByRole("button", { name: /^Newer work/ }));
    expect(app).toHaveAttribute("data-sessions", "closed");
    const toggle = screen.getByRole("button", { name: /^Sessions/ });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(toggle).toHaveAttribute("aria-controls", screen.getByRole("navigation").id);

    toggle.focus();
    await user.keyboard("{Enter}");
    expect(app).toHaveAttribute("data-sessions", "open");
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const current = screen.getByRole("button", { name: /^Newer work/ });
    expect(current).toHaveFocus();
    // Behind the drawer nothing takes the keyboard.
    expect(container.querySelector(".column")).toHaveAttribute("inert");

    await user.keyboard("{Escape}");
    expect(app).toHaveAttribute("data-sessions", "closed");
    expect(toggle).toHaveFocus();
    expect(container.querySelector(".column")).not.toHaveAttribute("inert");

    await user.click(toggle);
    await user.click(screen.getByRole("button", { name: "Close the session list" }));
    expect(toggle).toHaveFocus();

    await user.click(toggle);
    sent.length = 0;
    await user.click(screen.getByRole("button", { name: /^Older work/ }));
    expect(sent).toEqual([{ type: "session.open", sessionId: "old" }]);
    expect(app).toHaveAttribute("data-sessions", "closed");
    expect(screen.getByRole("main")).toHaveFocus();
  });

  it("[U2][U1] the inbox and the settings have the screen too: the list waits behind the header's toggle", async () => {
    phoneWindow();
    const user = userEvent.setup();
    const { container } = renderShell(<App />, { frames: [twoSessions] });
    const app = container.querySelector(".app");
    await user.click(screen.getByTestId("inbox-link"));
    expect(await screen.findByTestId("inbox")).toBeInTheDocument();
    expect(app).toHaveAttribute("data-sessions", "closed");
    const toggle = screen.getByRole("button", { name: /^Sessions/ });
    await user.click(toggle);
    expect(app).toHaveAttribute("data-sessions", "open");
    await user.click(screen.getByRole("button", { name: /^Older work/ }));
    expect(app).toHaveAttribute("data-sessions", "closed");

    await user.click(screen.getByTestId("settings-button"));
    expect(app).toHaveAttribute("data-sessions", "closed");
    expect(screen.getByRole("button", { name: /^Sessions/ })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
  });

  it("[U2][W11] New session from the drawer closes it and hands the keyboard to the new session's box, typed-ahead text included; so does an empty session handed back", async () => {
    phoneWindow();
    const user = userEvent.setup();
    const { container, client } = renderShell(<App />, { frames: [twoSessions] });
    const app = container.querySelector(".app");
    await user.click(screen.getByRole("button", { name: /^Newer work/ }));
    await user.click(screen.getByRole("button", { name: /^Sessions/ }));
    await user.click(screen.getByTestId("new-session"));
    expect(app).toHaveAttribute("data-sessions", "closed");
    await user.keyboard("on a phone");
    act(() => client.receive(snapshotFrame("fresh", [stored(1, created)], { title: "Fresh" })));
    expect(screen.getByTestId("composer-input")).toHaveValue("on a phone");
    expect(screen.getByTestId("composer-input")).toHaveFocus();

    await user.click(screen.getByRole("button", { name: /^Sessions/ }));
    await user.click(screen.getByTestId("new-session"));
    expect(app).toHaveAttribute("data-sessions", "closed");
    await user.keyboard(" again");
    act(() =>
      client.receive({
        ...snapshotFrame("fresh", [stored(1, created)], { title: "Fresh" }),
        created: true,
      } as Parameters<typeof client.receive>[0]),
    );
    expect(screen.getByTestId("composer-input")).toHaveValue("on a phone again");
    expect(screen.getByTestId("composer-input")).toHaveFocus();
  });
});
