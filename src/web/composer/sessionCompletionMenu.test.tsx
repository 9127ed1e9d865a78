// @vitest-environment jsdom
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { created, snapshotFrame, stored, summary, welcomeFrame } from "../store/fixtures.ts";
import { renderShell } from "../testing/renderShell.tsx";
import { ComposerArea } from "./ComposerArea.tsx";
import { prefetchSessionCompletion } from "./sessionCompletionMenu.tsx";

// The listbox is its own chunk (issue 15); in place, it renders at once, as after the first
// screen's prefetch.
beforeAll(() => prefetchSessionCompletion());

function renderComposer(language: "en" | "zh-CN" = "en") {
  const sessions = [
    summary("sess_cache1", { title: "Redis cache", updatedAt: 3_000 }),
    summary("sess_docs22", { title: "", updatedAt: 2_000 }),
    summary("sess_here00", { title: "This one", updatedAt: 9_000 }),
  ];
  const frames = [welcomeFrame({ sessions }), snapshotFrame("sess_here00", [stored(1, created)])];
  const view = renderShell(<ComposerArea sessionId="sess_here00" />, {
    frames,
    language,
    recordComposerDrafts: false,
  });
  const input = screen.getByRole("textbox", {
    name: language === "en" ? "Message to the agent" : /.+/,
  });
  return { ...view, input };
}

describe("#sess_ completion in the composer (M4)", () => {
  it("[M4] typing #sess_ offers the other sessions with their titles, below the box", async () => {
    const user = userEvent.setup();
    const { input } = renderComposer();
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(input).toHaveAttribute("aria-autocomplete", "list");
    await user.type(input, "continue #sess_");
    const list = screen.getByRole("listbox", { name: "Sessions to mention" });
    const options = within(list).getAllByRole("option");
    expect(options.map((o) => o.textContent)).toEqual([
      "Redis cachesess_cache1",
      "Untitled sessionsess_docs22",
    ]);
    expect(input).toHaveAttribute("aria-controls", list.id);
    expect(input).toHaveAttribute("aria-activedescendant", options[0]!.id);
    expect(options[0]).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("status")).toHaveTextContent("2 sessions match");
  });

  it("[M4] arrow keys move, Enter inserts the id instead of sending, and the next Enter sends", async () => {
    const user = userEvent.setup();
    const { input, sent } = renderComposer();
    await user.type(input, "see #sess_");
    await user.keyboard("{ArrowDown}");
    const options = screen.getAllByRole("option");
    expect(input).toHaveAttribute("aria-activedescendant", options[1]!.id);
    await user.keyboard("{ArrowDown}");
    expect(input).toHaveAttribute("aria-activedescendant", options[0]!.id);
    await user.keyboard("{ArrowUp}{Enter}");
    expect(input).toHaveValue("see #sess_docs22 ");
    expect(sent).toEqual([]);
    expect(screen.queryByRole("listbox")).toBeNull();
    await user.type(input, "please{Enter}");
    expect(sent).toEqual([
      { type: "prompt", sessionId: "sess_here00", text: "see #sess_docs22 please" },
    ]);
  });

  it("[M4] narrows by id or title as the user types, and Tab also inserts", async () => {
    const user = userEvent.setup();
    const { input } = renderComposer();
    await user.type(input, "#sess_redis");
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual([
      "Redis cachesess_cache1",
    ]);
    await user.keyboard("{Tab}");
    expect(input).toHaveValue("#sess_cache1 ");
    expect(input).toHaveFocus();
  });

  it("[M4] Escape closes the list and keeps the text; a click on an option inserts it", async () => {
    const user = userEvent.setup();
    const { input, sent } = renderComposer();
    await user.type(input, "#sess_");
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(input).toHaveValue("#sess_");
    await user.type(input, "c");
    await user.click(screen.getByRole("option", { name: /Redis cache/ }));
    expect(input).toHaveValue("#sess_cache1 ");
    expect(sent).toEqual([]);
  });

  it("[M4] says so when nothing matches, and the session itself is never offered", async () => {
    const user = userEvent.setup();
    const { input } = renderComposer();
    await user.type(input, "#sess_here");
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(screen.getByRole("status")).toHaveTextContent("No other session matches.");
  });

  it("[M4] speaks Chinese too", async () => {
    const user = userEvent.setup();
    const { input } = renderComposer("zh-CN");
    await user.type(input, "#sess_");
    expect(screen.getByRole("listbox", { name: "可引用的会话" })).toBeInTheDocument();
    expect(screen.getByRole("option", { name: /未命名会话/ })).toBeInTheDocument();
  });
});
