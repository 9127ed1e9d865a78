// @vitest-environment jsdom
import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ModelInfo } from "../../protocol/index.ts";
import { created, eventFrame, snapshotFrame, stored, welcomeFrame } from "../store/fixtures.ts";
import { renderShell } from "../testing/renderShell.tsx";
import { ModelPicker } from "./ModelPicker.tsx";
import { modelGroups } from "./modelOptions.ts";

const models: ModelInfo[] = [
  { ref: "scripted/demo", provider: "scripted", label: "Scripted: demo" },
  { ref: "local/fake-model", provider: "Loopback", label: "fake-model" },
  {
    ref: "openai/gpt-5.4",
    provider: "OpenAI",
    label: "gpt-5.4",
    disabled: "no API key: set OPENAI_API_KEY",
  },
];

function renderPicker(options: { online?: boolean; language?: "en" | "zh-CN" } = {}) {
  const frames = [welcomeFrame({ models }), snapshotFrame("s1", [stored(1, created)])];
  return renderShell(<ModelPicker sessionId="s1" />, { frames, ...options });
}

describe("ModelPicker", () => {
  it("[M1] lists the host's models by provider, the current one selected", () => {
    renderPicker();
    const picker = screen.getByRole("combobox", { name: "Model" });
    expect(picker).toHaveValue("scripted/demo");
    const groups = within(picker).getAllByRole("group");
    expect(groups.map((g) => g.getAttribute("label"))).toEqual(["scripted", "Loopback", "OpenAI"]);
    expect(
      within(picker)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual([
      "Scripted: demo",
      "fake-model",
      "gpt-5.4 (unavailable: no API key: set OPENAI_API_KEY)",
    ]);
  });

  it("[X1] a session driven by an agent over MCP names the agent instead of offering models", () => {
    const mcpCreated = { ...created, model: "mcp/claude-code" } as typeof created;
    renderShell(<ModelPicker sessionId="s1" />, {
      frames: [
        welcomeFrame({ models }),
        snapshotFrame("s1", [stored(1, mcpCreated)], { model: "mcp/claude-code" }),
      ],
      language: "zh-CN",
    });
    expect(screen.queryByRole("combobox")).not.toBeInTheDocument();
    expect(screen.getByTestId("model-external")).toHaveTextContent("claude-code（通过 MCP）");
  });

  it("[M1] shows a disabled model as disabled, with its reason", () => {
    renderPicker();
    const option = screen.getByRole("option", { name: /gpt-5\.4/ });
    expect(option).toBeDisabled();
    expect(option).toHaveTextContent("no API key");
  });

  it("[M1] sends model.set when the user picks another model, and follows the recorded change", async () => {
    const user = userEvent.setup();
    const { sent, client } = renderPicker();
    const picker = screen.getByRole("combobox", { name: "Model" });
    await user.selectOptions(picker, "local/fake-model");
    expect(sent).toEqual([{ type: "model.set", sessionId: "s1", model: "local/fake-model" }]);
    expect(picker).toHaveValue("local/fake-model");
    act(() =>
      client.receive(
        eventFrame("s1", 2, { kind: "session.modelChanged", model: "local/fake-model" }),
      ),
    );
    expect(picker).toHaveValue("local/fake-model");
  });

  it("[M1] goes back to the session's model when the server refuses the pick", async () => {
    const user = userEvent.setup();
    const { client } = renderPicker();
    const picker = screen.getByRole("combobox", { name: "Model" });
    await user.selectOptions(picker, "local/fake-model");
    act(() =>
      client.receive({ type: "error", code: "BAD_MODEL", message: "no", ref: "model.set" }),
    );
    expect(picker).toHaveValue("scripted/demo");
  });

  it("[M1] cannot be changed while the connection is down", () => {
    const { store } = renderPicker();
    act(() =>
      store.getState().setConnectionStatus({ status: "reconnecting", attempt: 1, retryAt: 0 }),
    );
    expect(screen.getByRole("combobox", { name: "Model" })).toBeDisabled();
  });

  it("[M1] keeps a current model the host no longer lists", () => {
    const groups = modelGroups(models, "scripted//tmp/x.yaml");
    expect(groups.find((g) => g.provider === "scripted")?.models.map((m) => m.ref)).toEqual([
      "scripted/demo",
      "scripted//tmp/x.yaml",
    ]);
    expect(modelGroups(models, "gone/model").at(-1)).toEqual({
      provider: "gone",
      models: [{ ref: "gone/model", provider: "gone", label: "gone/model" }],
    });
  });

  it("[M1] speaks Chinese too", () => {
    renderPicker({ language: "zh-CN" });
    expect(screen.getByRole("combobox", { name: "模型" })).toBeInTheDocument();
    expect(screen.getByRole("option", { name: /不可用/ })).toBeDisabled();
  });
});
