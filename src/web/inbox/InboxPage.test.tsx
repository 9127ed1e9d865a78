// @vitest-environment jsdom
import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { InboxItem, PermissionRequest, ServerFrame } from "../../protocol/index.ts";
import { App } from "../App.tsx";
import { questionRequest, summary, welcomeFrame } from "../store/fixtures.ts";
import { appStore } from "../store/store.ts";
import { renderShell } from "../testing/renderShell.tsx";

afterEach(() => {
  window.location.hash = "";
});

const waiting = { phase: "ineligible" } as const;

function permission(
  interactionId: string,
  sessionId: string,
  createdAt: number,
): PermissionRequest {
  return {
    kind: "permission",
    interactionId,
    sessionId,
    toolName: "Write",
    toolCallId: `call-${interactionId}`,
    summary: "notes.md",
    input: { path: "notes.md", content: "hi" },
    createdAt,
  };
}

const items: InboxItem[] = [
  { request: { ...questionRequest("q-b", "b"), createdAt: 20 }, countdown: waiting, queueOrder: 0 },
  { request: permission("p-a", "a", 30), countdown: waiting, queueOrder: 0 },
  { request: { ...questionRequest("q-m", "m"), createdAt: 10 }, countdown: waiting, queueOrder: 0 },
  { request: { ...questionRequest("q-c", "c"), createdAt: 40 }, countdown: waiting, queueOrder: 0 },
];

const frames: ServerFrame[] = [
  welcomeFrame({
    sessions: [
      summary("a", { title: "Refactor", pendingInteractions: 1 }),
      summary("b", { title: "Docs", pendingInteractions: 1 }),
      summary("c", { title: "Tests", pendingInteractions: 1 }),
      summary("m", { title: "Agent session", model: "mcp/claude-code", pendingInteractions: 1 }),
    ],
  }),
  { type: "inbox.snapshot", items },
];

/** Follows the session list's link; the page's code loads on first use (issue 15). */
async function openInbox(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByTestId("inbox-link"));
  await screen.findByTestId("inbox");
}

function rows() {
  return within(screen.getByTestId("inbox-list")).getAllByTestId("inbox-item");
}

function rowButton(index: number): HTMLElement {
  const row = rows()[index];
  if (!row) throw new Error(`no row ${index}`);
  return within(row).getAllByRole("button")[0] as HTMLElement;
}

describe("inbox page", () => {
  it("[U1] the session list links to the inbox with the total waiting", async () => {
    const user = userEvent.setup();
    renderShell(<App />, { frames });
    const link = screen.getByTestId("inbox-link");
    expect(link).toHaveTextContent("4 decisions waiting");
    await user.click(link);
    expect(window.location.hash).toBe("#/inbox");
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Inbox");
  });

  it("[U1] lists every waiting item oldest first with agent, session and kind", async () => {
    const user = userEvent.setup();
    renderShell(<App />, { frames });
    await openInbox(user);
    expect(rows().map((row) => row.getAttribute("data-interaction-id"))).toEqual([
      "q-m",
      "q-b",
      "p-a",
      "q-c",
    ]);
    expect(rows()[0]).toHaveTextContent("claude-code");
    expect(rows()[0]).toHaveTextContent("Agent session");
    expect(rows()[0]).toHaveTextContent("Which database for q-m?");
    expect(rows()[1]).toHaveTextContent("plangate");
    expect(rows()[2]).toHaveTextContent("Permission");
    expect(rows()[2]).toHaveTextContent("Write · notes.md");
  });

  it("[U1] an MCP agent that calls itself plangate is marked over MCP; plangate's own sessions are not", async () => {
    const user = userEvent.setup();
    const impostor: InboxItem = {
      request: { ...questionRequest("q-x", "x"), createdAt: 50 },
      countdown: waiting,
      queueOrder: 0,
    };
    renderShell(<App />, {
      frames: [
        welcomeFrame({
          sessions: [
            summary("b", { title: "Docs", pendingInteractions: 1 }),
            summary("x", { title: "Looks legit", model: "mcp/plangate", pendingInteractions: 1 }),
          ],
        }),
        { type: "inbox.snapshot", items: [items[0] as InboxItem, impostor] },
      ],
    });
    await openInbox(user);
    const [own, agent] = rows() as [HTMLElement, HTMLElement];
    expect(within(own).getByTestId("inbox-agent")).toHaveTextContent("plangate");
    expect(within(own).queryByTestId("inbox-via-mcp")).toBeNull();
    expect(within(agent).getByTestId("inbox-agent")).toHaveTextContent("plangate");
    expect(within(agent).getByTestId("inbox-via-mcp")).toHaveTextContent("over MCP");
    expect(within(agent).getAllByRole("button")[0]).toHaveAccessibleName(/plangate\s*over MCP/);
  });

  it("[U1] j / k move through the list, Enter opens the same card, and an answer goes out", async () => {
    const user = userEvent.setup();
    const { sent, client } = renderShell(<App />, { frames });
    await openInbox(user);
    await user.keyboard("j");
    expect(rowButton(0)).toHaveFocus();
    await user.keyboard("jj");
    expect(rowButton(2)).toHaveFocus();
    await user.keyboard("k");
    expect(rowButton(1)).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(rowButton(1)).toHaveAttribute("aria-expanded", "true");
    const card = within(rows()[1] as HTMLElement);
    await user.click(card.getByText("Postgres"));
    await user.click(card.getByRole("button", { name: "Submit" }));
    expect(sent).toContainEqual({
      type: "interaction.answer",
      interactionId: "q-b",
      answers: { "Which database for q-b?": { labels: ["Postgres"] } },
    });

    act(() =>
      client.receive({ type: "inbox.changed", upserted: [], updated: [], removed: ["q-b"] }),
    );
    expect(rows()).toHaveLength(3);
    expect(rowButton(1)).toHaveFocus();
    expect(rows()[1]).toHaveAttribute("data-interaction-id", "p-a");
  });

  it("[U1][Q7] an item says how many of its session's items wait before it, and moves up as the head leaves", async () => {
    const user = userEvent.setup();
    const queued = (id: string, createdAt: number, queueOrder: number): InboxItem => ({
      request: { ...questionRequest(id, "b"), createdAt },
      countdown: waiting,
      queueOrder,
    });
    const { client } = renderShell(<App />, {
      frames: [
        welcomeFrame({ sessions: [summary("b", { title: "Docs", pendingInteractions: 3 })] }),
        // Asked in the same millisecond: only the arrival order tells them apart.
        {
          type: "inbox.snapshot",
          items: [queued("q-3", 7, 12), queued("q-1", 7, 4), queued("q-2", 7, 9)],
        },
      ],
    });
    await openInbox(user);
    expect(rows().map((row) => row.getAttribute("data-interaction-id"))).toEqual([
      "q-1",
      "q-2",
      "q-3",
    ]);
    expect(rows()[0]).not.toHaveTextContent("more in its session");
    expect(rows()[1]).toHaveTextContent("after 1 more in its session");
    expect(rows()[2]).toHaveTextContent("after 2 more in its session");

    // The server sends only the head's removal: the others' places follow from their order.
    act(() =>
      client.receive({ type: "inbox.changed", upserted: [], updated: [], removed: ["q-1"] }),
    );
    expect(rows()[0]).not.toHaveTextContent("more in its session");
    expect(rows()[1]).toHaveTextContent("after 1 more in its session");
  });

  it("[U1] a permission request is decided from the inbox", async () => {
    const user = userEvent.setup();
    const { sent } = renderShell(<App />, { frames });
    await openInbox(user);
    await user.click(rowButton(2));
    await user.click(within(rows()[2] as HTMLElement).getByRole("button", { name: "Allow once" }));
    expect(sent).toContainEqual({
      type: "interaction.decide",
      interactionId: "p-a",
      decision: "allow_once",
    });
  });

  it("[U1] ? shows the triage keys and Escape hides them", async () => {
    const user = userEvent.setup();
    renderShell(<App />, { frames });
    await openInbox(user);
    await user.keyboard("?");
    const help = screen.getByRole("dialog", { name: "Inbox shortcuts" });
    expect(help).toHaveTextContent("Next item");
    expect(help).toHaveTextContent("Previous item");
    expect(help).toHaveTextContent("Open or close the item");
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("[U3] a notification's link #/inbox/<id> lands on that card, opened", async () => {
    renderShell(<App />, { frames });
    act(() => {
      window.location.hash = "#/inbox/p-a";
      appStore.getState().showPage("inbox");
    });
    await screen.findByTestId("inbox");
    expect(rowButton(2)).toHaveAttribute("aria-expanded", "true");
    expect(
      within(rows()[2] as HTMLElement).getByRole("button", { name: "Allow once" }),
    ).toBeVisible();
  });

  it("[U1] says so when nothing waits", async () => {
    const user = userEvent.setup();
    renderShell(<App />, { frames: [frames[0] as ServerFrame] });
    await openInbox(user);
    expect(screen.getByText(/Nothing waits for you/)).toBeInTheDocument();
  });
});
