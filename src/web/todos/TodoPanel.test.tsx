// @vitest-environment jsdom
import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { TodoItem } from "../../protocol/index.ts";
import { created, eventFrame, snapshotFrame, stored } from "../store/fixtures.ts";
import { renderShell } from "../testing/renderShell.tsx";
import { TodoPanel } from "./TodoPanel.tsx";

const three = (done: number): TodoItem[] =>
  ["Read the loader", "Add the cache", "Write tests"].map((content, index) => ({
    content,
    status: index < done ? "completed" : index === done ? "in_progress" : "pending",
    priority: index === 0 ? "high" : "low",
  }));

function renderPanel(language: "en" | "zh-CN" = "en") {
  const frames = [snapshotFrame("s1", [stored(1, created)])];
  return renderShell(<TodoPanel sessionId="s1" />, { frames, language });
}

describe("TodoPanel", () => {
  it("[T6] shows nothing until the agent writes a list", () => {
    renderPanel();
    expect(screen.queryByRole("complementary")).toBeNull();
  });

  it("[T6] lists each item with its status and priority, and completed / total", () => {
    const { client } = renderPanel();
    act(() => client.receive(eventFrame("s1", 2, { kind: "todos.updated", todos: three(1) })));
    const panel = screen.getByRole("complementary", { name: "Todos" });
    const items = within(panel).getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual([
      "✓Read the loaderDoneHigh",
      "▸Add the cacheIn progressLow",
      "○Write testsTo doLow",
    ]);
    expect(within(panel).getByText("1 / 3 done")).toBeInTheDocument();
    const bar = within(panel).getByRole("progressbar", { name: "Todo progress" });
    expect(bar).toHaveAttribute("value", "1");
    expect(bar).toHaveAttribute("max", "3");
    expect(bar).toHaveAttribute("aria-valuetext", "1 / 3 done");
  });

  it("[T6] follows the list live as the agent rewrites it", () => {
    const { client } = renderPanel();
    act(() => client.receive(eventFrame("s1", 2, { kind: "todos.updated", todos: three(0) })));
    expect(screen.getByText("0 / 3 done")).toBeInTheDocument();
    act(() => client.receive(eventFrame("s1", 3, { kind: "todos.updated", todos: three(2) })));
    expect(screen.getByText("2 / 3 done")).toBeInTheDocument();
    const done = three(3).slice(0, 1);
    act(() =>
      client.receive(
        eventFrame("s1", 4, {
          kind: "todos.updated",
          todos: [{ ...done[0]!, status: "completed" }],
        }),
      ),
    );
    expect(screen.getAllByRole("listitem")).toHaveLength(1);
    expect(screen.getByText("1 / 1 done")).toBeInTheDocument();
  });

  it("[T6] folds the list by keyboard and keeps the progress and current item in view", async () => {
    const user = userEvent.setup();
    const { client } = renderPanel();
    act(() => client.receive(eventFrame("s1", 2, { kind: "todos.updated", todos: three(1) })));
    const toggle = screen.getByRole("button", { name: "Hide list" });
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    toggle.focus();
    await user.keyboard("{Enter}");
    expect(screen.queryByRole("list")).toBeNull();
    expect(screen.getByText("1 / 3 done")).toBeInTheDocument();
    expect(screen.getByTitle("Add the cache")).toBeVisible();
    expect(screen.getByRole("button", { name: "Show list" })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
  });

  it("[T6] speaks Chinese too", () => {
    const { client } = renderPanel("zh-CN");
    act(() => client.receive(eventFrame("s1", 2, { kind: "todos.updated", todos: three(1) })));
    expect(screen.getByRole("complementary", { name: "待办" })).toBeInTheDocument();
    expect(screen.getByText("已完成 1 / 3")).toBeInTheDocument();
    expect(screen.getByText("进行中")).toBeInTheDocument();
  });
});
