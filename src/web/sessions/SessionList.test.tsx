// @vitest-environment jsdom
import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { summary, welcomeFrame } from "../store/fixtures.ts";
import { renderShell } from "../testing/renderShell.tsx";
import { formatRelativeTime } from "./relativeTime.ts";
import { SessionList } from "./SessionList.tsx";

vi.mock("./relativeTime.ts", async (original) => {
  const actual = await original<typeof import("./relativeTime.ts")>();
  return { ...actual, formatRelativeTime: vi.fn(actual.formatRelativeTime) };
});

function renderList() {
  return renderShell(<SessionList />, {
    frames: [welcomeFrame({ sessions: [summary("s1", { title: "Price cache" })] })],
  });
}

describe("SessionList", () => {
  it("[W15] renames in place: Enter sends the trimmed title, Escape leaves it as it was", async () => {
    const user = userEvent.setup();
    const { sent } = renderList();
    await user.click(screen.getByRole("button", { name: "Rename “Price cache”" }));
    const input = screen.getByRole("textbox", { name: "New title for the session" });
    expect(input).toHaveFocus();
    await user.clear(input);
    await user.type(input, "  Lookup cache {Enter}");
    expect(sent).toEqual([{ type: "session.rename", sessionId: "s1", title: "Lookup cache" }]);
    expect(screen.getByTestId("session-item")).toHaveFocus();

    await user.click(screen.getByRole("button", { name: "Rename “Price cache”" }));
    await user.type(screen.getByRole("textbox"), "something else{Escape}");
    expect(sent).toHaveLength(1);
  });

  it("[W15] asks before deleting, and sends nothing when the person keeps the session", async () => {
    const user = userEvent.setup();
    const { sent } = renderList();
    await user.click(screen.getByRole("button", { name: "Delete “Price cache”" }));
    const dialog = screen.getByRole("alertdialog");
    expect(dialog).toHaveTextContent("Delete “Price cache”?");
    expect(screen.getByRole("button", { name: "Keep it" })).toHaveFocus();
    await user.click(screen.getByRole("button", { name: "Keep it" }));
    expect(sent).toEqual([]);
    expect(screen.queryByRole("alertdialog")).toBeNull();

    await user.click(screen.getByRole("button", { name: "Delete “Price cache”" }));
    await user.click(screen.getByRole("button", { name: "Delete" }));
    expect(sent).toEqual([{ type: "session.delete", sessionId: "s1" }]);
  });

  it("[W1][W3] says there are no sessions only once the server has listed them", () => {
    const { client } = renderShell(<SessionList />, { online: false });
    expect(screen.queryByText(/No sessions yet/)).toBeNull();
    act(() => client.receive(welcomeFrame({ sessions: [] })));
    expect(screen.getByText(/No sessions yet/)).toBeInTheDocument();
  });

  it("[W15] offers no rename or delete while offline", () => {
    const { store } = renderList();
    act(() =>
      store.getState().setConnectionStatus({ status: "reconnecting", attempt: 1, retryAt: 0 }),
    );
    expect(screen.getByRole("button", { name: "Rename “Price cache”" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Delete “Price cache”" })).toBeDisabled();
  });

  it("[W1] a session's update re-renders its own row, not every row of a long list", () => {
    const sessions = Array.from({ length: 200 }, (_, i) =>
      summary(`s${i}`, { title: `Session ${i}`, createdAt: i }),
    );
    const { client } = renderShell(<SessionList />, { frames: [welcomeFrame({ sessions })] });
    expect(screen.getAllByTestId("session-item")).toHaveLength(200);
    const rendered = vi.mocked(formatRelativeTime);
    rendered.mockClear();

    act(() =>
      client.receive({
        type: "session.upserted",
        session: {
          ...sessions[7]!,
          title: "Renamed elsewhere",
          updatedAt: sessions[7]!.updatedAt + 1,
        },
      }),
    );
    expect(screen.getByText("Renamed elsewhere")).toBeInTheDocument();
    expect(rendered).toHaveBeenCalledTimes(1);
  });
});
