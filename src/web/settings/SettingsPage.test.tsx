// @vitest-environment jsdom
import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LANGUAGE_STORAGE_KEY } from "../i18n/language.ts";
import { welcomeFrame } from "../store/fixtures.ts";
import { renderShell } from "../testing/renderShell.tsx";
import { SettingsPage } from "./SettingsPage.tsx";

afterEach(() => window.localStorage.clear());

describe("SettingsPage", () => {
  it("[A5] the auto-continue switch explains itself and sends settings.update", async () => {
    const user = userEvent.setup();
    const { sent } = renderShell(<SettingsPage onBack={() => {}} />, { frames: [welcomeFrame()] });
    const toggle = screen.getByRole("switch", { name: "Auto-continue questions" });
    expect(toggle).toBeChecked();
    expect(toggle).toHaveAccessibleDescription(/countdown/);
    await user.click(toggle);
    expect(sent).toEqual([{ type: "settings.update", patch: { autoContinue: false } }]);
  });

  it("[A5] reflects the server's setting once it changes", () => {
    const { client } = renderShell(<SettingsPage onBack={() => {}} />, {
      frames: [welcomeFrame()],
    });
    act(() =>
      client.receive({
        type: "settings.changed",
        settings: { autoContinue: false, theme: "dark" },
      }),
    );
    expect(screen.getByRole("switch", { name: "Auto-continue questions" })).not.toBeChecked();
    expect(screen.getByRole("combobox", { name: "Theme" })).toHaveValue("dark");
  });

  it("[W2] switching the language turns the copy Chinese, live, and remembers it", async () => {
    const user = userEvent.setup();
    renderShell(<SettingsPage onBack={() => {}} />, { frames: [welcomeFrame()] });
    expect(screen.getByRole("heading", { level: 2, name: "Settings" })).toBeInTheDocument();
    await user.selectOptions(screen.getByRole("combobox", { name: "Language" }), "zh-CN");
    // zh-CN is not in the page until the switch fetches it (issue 15).
    expect(await screen.findByRole("heading", { level: 2, name: "设置" })).toBeInTheDocument();
    expect(screen.getByRole("switch", { name: "问题自动继续" })).toBeInTheDocument();
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe("zh-CN");
    expect(document.documentElement.lang).toBe("zh-CN");
  });

  it("[W1] the theme select sends settings.update", async () => {
    const user = userEvent.setup();
    const { sent } = renderShell(<SettingsPage onBack={() => {}} />, { frames: [welcomeFrame()] });
    await user.selectOptions(screen.getByRole("combobox", { name: "Theme" }), "dark");
    expect(sent).toEqual([{ type: "settings.update", patch: { theme: "dark" } }]);
  });

  it("[X1] shows this server's MCP address and a Claude Code command that leaves the token to the environment", () => {
    renderShell(<SettingsPage onBack={() => {}} />, { frames: [welcomeFrame()] });
    const endpoint = `${window.location.origin}/mcp`;
    expect(screen.getByRole("heading", { level: 3, name: "Agents over MCP" })).toBeInTheDocument();
    expect(screen.getByText(endpoint)).toBeInTheDocument();
    expect(
      screen.getByText(
        `claude mcp add --transport http plangate ${endpoint} --header "Authorization: Bearer $PLANGATE_TOKEN"`,
      ),
    ).toBeInTheDocument();
  });

  it("[X1] Copy puts the value on the clipboard and says so; a refused clipboard selects the text instead", async () => {
    const user = userEvent.setup();
    renderShell(<SettingsPage onBack={() => {}} />, { frames: [welcomeFrame()] });
    const [copyAddress, copyCommand] = screen.getAllByRole("button", { name: "Copy" });
    expect(copyAddress).toHaveAccessibleDescription("Address");
    await user.click(copyAddress as HTMLElement);
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/mcp`);
    expect(screen.getByText("Copied.")).toBeInTheDocument();

    vi.spyOn(navigator.clipboard, "writeText").mockRejectedValueOnce(new Error("denied"));
    await user.click(copyCommand as HTMLElement);
    expect(
      await screen.findByText("Could not copy; the text is selected, copy it with the keyboard."),
    ).toBeInTheDocument();
    expect(window.getSelection()?.toString()).toContain("claude mcp add");
  });

  it("[X1] where the browser has no clipboard at all (an insecure origin), Copy selects the text", async () => {
    const user = userEvent.setup();
    renderShell(<SettingsPage onBack={() => {}} />, { frames: [welcomeFrame()] });
    const clipboard = Object.getOwnPropertyDescriptor(window.navigator, "clipboard");
    Object.defineProperty(window.navigator, "clipboard", { value: undefined, configurable: true });
    try {
      await user.click(screen.getAllByRole("button", { name: "Copy" })[0] as HTMLElement);
      expect(
        await screen.findByText("Could not copy; the text is selected, copy it with the keyboard."),
      ).toBeInTheDocument();
      expect(window.getSelection()?.toString()).toBe(`${window.location.origin}/mcp`);
    } finally {
      if (clipboard) Object.defineProperty(window.navigator, "clipboard", clipboard);
    }
  });
});
