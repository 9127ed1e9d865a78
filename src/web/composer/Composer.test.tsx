// @vitest-environment jsdom
import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRef } from "react";
import type { ExecutionMode, SessionEntry } from "../../protocol/index.ts";
import { created, eventFrame, snapshotFrame, stored } from "../store/fixtures.ts";
import { renderShell } from "../testing/renderShell.tsx";
import { Composer } from "./Composer.tsx";

function renderComposer(
  mode: ExecutionMode,
  options: { online?: boolean; language?: "en" | "zh-CN" } = {},
) {
  const entry: SessionEntry = { ...created, mode } as SessionEntry;
  const view = renderShell(<Composer sessionId="s1" inputRef={createRef()} />, {
    frames: [snapshotFrame("s1", [stored(1, entry)], { mode })],
    online: options.online ?? true,
    language: options.language ?? "en",
    // Draft saves (W14) are ComposerArea's to test; on a slow machine they land among these frames.
    recordComposerDrafts: false,
  });
  return { ...view, input: screen.getByRole("textbox") };
}

const build: ExecutionMode = { permissionMode: "build", planEnabled: false };
const plan: ExecutionMode = { permissionMode: "build", planEnabled: true };

describe("Composer modes", () => {
  it("[P2] Shift+Tab in the message box asks for the next mode and keeps focus and text", async () => {
    const user = userEvent.setup();
    const { input, sent } = renderComposer(plan);
    await user.type(input, "half a thought");
    await user.keyboard("{Shift>}{Tab}{/Shift}");
    expect(sent).toEqual([{ type: "mode.set", sessionId: "s1", mode: "build" }]);
    expect(input).toHaveFocus();
    expect(input).toHaveValue("half a thought");
  });

  it("[W5][P2] Esc, then Shift+Tab, moves focus back out of the box and leaves the mode alone", async () => {
    const user = userEvent.setup();
    const { input, sent } = renderComposer(plan);
    await user.type(input, "half a thought");
    await user.keyboard("{Escape}{Shift>}{Tab}{/Shift}");
    expect(sent).toEqual([]);
    expect(input).not.toHaveFocus();
    // Only the Shift+Tab right after Esc: back in the box, it switches the mode again.
    await user.click(input);
    await user.keyboard("{Escape}a{Shift>}{Tab}{/Shift}");
    expect(sent).toEqual([{ type: "mode.set", sessionId: "s1", mode: "build" }]);
    expect(input).toHaveFocus();
  });

  it("[X1] in a session an agent drives over MCP, the box writes to it and offers no mode", async () => {
    const user = userEvent.setup();
    const entry = { ...created, model: "mcp/claude-code", mode: build } as SessionEntry;
    const { sent } = renderShell(<Composer sessionId="s1" inputRef={createRef()} />, {
      frames: [snapshotFrame("s1", [stored(1, entry)], { mode: build, model: "mcp/claude-code" })],
      online: true,
      language: "en",
    });
    const input = screen.getByRole("textbox");
    expect(input).toHaveAttribute("placeholder", expect.stringContaining("claude-code"));
    expect(screen.queryByTestId("mode-chip")).not.toBeInTheDocument();
    await user.click(input);
    await user.keyboard("{Shift>}{Tab}{/Shift}");
    expect(sent).toEqual([]);
  });

  it("[P2] cycles from the mode the server last reported", async () => {
    const user = userEvent.setup();
    const { input, sent, client } = renderComposer(build);
    await user.click(input);
    await user.keyboard("{Shift>}{Tab}{/Shift}");
    act(() =>
      client.receive(
        eventFrame("s1", 2, {
          kind: "session.modeChanged",
          mode: { permissionMode: "yolo", planEnabled: false },
        }),
      ),
    );
    await user.keyboard("{Shift>}{Tab}{/Shift}");
    expect(sent).toEqual([
      { type: "mode.set", sessionId: "s1", mode: "edit" },
      { type: "mode.set", sessionId: "s1", mode: "plan" },
    ]);
  });

  it("[P2] pressed twice before the server answers, the second Shift+Tab goes one mode further", async () => {
    const user = userEvent.setup();
    const { input, sent } = renderComposer(build);
    await user.click(input);
    await user.keyboard("{Shift>}{Tab}{/Shift}{Shift>}{Tab}{/Shift}");
    expect(sent).toEqual([
      { type: "mode.set", sessionId: "s1", mode: "edit" },
      { type: "mode.set", sessionId: "s1", mode: "yolo" },
    ]);
  });

  it("[P2] plain Tab is left alone, and nothing is sent while offline", async () => {
    const user = userEvent.setup();
    const { input, sent } = renderComposer(build, { online: false });
    await user.click(input);
    await user.keyboard("{Shift>}{Tab}{/Shift}");
    expect(sent).toEqual([]);
    await user.click(input);
    await user.tab();
    expect(input).not.toHaveFocus();
  });

  it("[P1][W1] the chip shows the current mode, plan above the permission mode, and follows changes", () => {
    const { client } = renderComposer({ permissionMode: "yolo", planEnabled: true });
    const chip = screen.getByTestId("mode-chip");
    expect(chip).toHaveTextContent("Mode: Plan");
    expect(chip).toHaveAttribute("data-mode", "plan");
    expect(chip).toHaveClass("mode-chip--plan");
    act(() =>
      client.receive(
        eventFrame("s1", 2, {
          kind: "session.modeChanged",
          mode: { permissionMode: "yolo", planEnabled: false },
        }),
      ),
    );
    expect(screen.getByTestId("mode-chip")).toHaveTextContent("Mode: YOLO");
    expect(screen.getByTestId("mode-chip")).toHaveAttribute("aria-live", "polite");
  });

  it("[R3] a turn that stopped while the store refused its end gives Stop back for Send at once", async () => {
    const user = userEvent.setup();
    const { client, sent, input } = renderComposer(build);
    act(() => client.receive(eventFrame("s1", 2, { kind: "turn.started" })));
    expect(screen.getByRole("button", { name: "Stop" })).toBeInTheDocument();
    act(() => client.receive({ type: "turn.stopped", sessionId: "s1", code: "storage.full" }));
    expect(screen.queryByRole("button", { name: "Stop" })).not.toBeInTheDocument();
    await user.type(input, "again");
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(sent).toContainEqual({ type: "prompt", sessionId: "s1", text: "again" });
  });

  it("[W2] the message box describes the Shift+Tab shortcut, in both languages", () => {
    const { input, unmount } = renderComposer(build);
    expect(input).toHaveAccessibleDescription(
      expect.stringContaining("Shift+Tab in the message box switches the mode"),
    );
    unmount();
    const zh = renderComposer(build, { language: "zh-CN" });
    expect(zh.input).toHaveAccessibleDescription(expect.stringContaining("按 Shift+Tab 切换模式"));
  });
});

describe("Composer and a refused message", () => {
  it("[R3][W1] a message the server refuses (its log could not be written) comes back into the box", async () => {
    const user = userEvent.setup();
    const { input, sent, client } = renderComposer(build);
    await user.type(input, "a message worth keeping{Enter}");
    expect(sent).toContainEqual({
      type: "prompt",
      sessionId: "s1",
      text: "a message worth keeping",
    });
    expect(input).toHaveValue("");
    act(() =>
      client.receive({
        type: "error",
        code: "STORAGE_FAILED",
        message: "The session log could not be written: database or disk is full",
        ref: "prompt",
      }),
    );
    expect(input).toHaveValue("a message worth keeping");
  });

  it("[R3] another frame's refusal, or one after the person typed again, leaves the box as it is", async () => {
    const user = userEvent.setup();
    const { input, client } = renderComposer(build);
    await user.type(input, "first{Enter}");
    act(() => client.receive({ type: "error", code: "BAD_FRAME", message: "no", ref: "mode.set" }));
    expect(input).toHaveValue("");
    await user.type(input, "second thoughts");
    act(() =>
      client.receive({ type: "error", code: "STORAGE_FAILED", message: "full", ref: "prompt" }),
    );
    expect(input).toHaveValue("second thoughts");
  });
});
