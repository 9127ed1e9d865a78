// @vitest-environment jsdom
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { ServerFrame, SessionEntry } from "../../protocol/index.ts";
import { TURN_NOTICE_ENGLISH } from "../../shared/turnNotices.ts";
import { created, questionRequest, snapshotFrame, stored, summary } from "../store/fixtures.ts";
import { renderShell } from "../testing/renderShell.tsx";
import { Transcript } from "./Transcript.tsx";

function renderEntries(entries: SessionEntry[], language: "en" | "zh-CN" = "en") {
  const frames = [
    snapshotFrame(
      "s1",
      [created, ...entries].map((entry, i) => stored(i + 1, entry)),
    ),
  ];
  return renderShell(<Transcript sessionId="s1" />, { frames, language });
}

describe("Transcript", () => {
  it("[W1] shows the latest entries of a long session and reveals earlier ones on request", async () => {
    const user = userEvent.setup();
    const entries: SessionEntry[] = Array.from({ length: 400 }, (_, i) => ({
      kind: "user.message" as const,
      text: `message ${i}`,
    }));
    renderEntries(entries);
    const transcript = screen.getByTestId("transcript");
    await waitFor(() => expect(within(transcript).getAllByTestId("entry-user")).toHaveLength(150));
    expect(within(transcript).getByText("message 399")).toBeInTheDocument();
    expect(within(transcript).queryByText("message 0")).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Show earlier messages" }));
    expect(within(transcript).getAllByTestId("entry-user")).toHaveLength(300);
    await user.click(screen.getByRole("button", { name: "Show earlier messages" }));
    expect(within(transcript).getByText("message 0")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Show earlier messages" })).not.toBeInTheDocument();
  });

  it("[W1] draws a long session's last screen with the page, and the rest of its window only once the page is idle (issue 15: new tab)", () => {
    const idle: IdleRequestCallback[] = [];
    const requestIdle = vi.fn((callback: IdleRequestCallback) => idle.push(callback));
    vi.stubGlobal("requestIdleCallback", requestIdle);
    try {
      const entries: SessionEntry[] = Array.from({ length: 400 }, (_, i) => ({
        kind: "user.message" as const,
        text: `message ${i}`,
      }));
      renderEntries(entries);
      const transcript = screen.getByTestId("transcript");
      expect(within(transcript).getAllByTestId("entry-user")).toHaveLength(40);
      expect(within(transcript).getByText("message 399")).toBeInTheDocument();
      expect(requestIdle).toHaveBeenCalledTimes(1);
      act(() => {
        for (const callback of idle.splice(0)) {
          callback({ didTimeout: false, timeRemaining: () => 50 });
        }
      });
      expect(within(transcript).getAllByTestId("entry-user")).toHaveLength(150);
      expect(within(transcript).getByText("message 250")).toBeInTheDocument();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("[W1] Show earlier fetches older messages from the server when the loaded ones run out", async () => {
    const user = userEvent.setup();
    const message = (seq: number) =>
      stored(seq, { kind: "user.message", text: `message ${seq}` } as SessionEntry);
    const range = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => message(from + i));
    const snapshot: ServerFrame = {
      type: "snapshot",
      session: summary("s1", { lastSeq: 400 }),
      context: [stored(1, created)],
      entries: range(301, 400),
      earlier: { beforeSeq: 301, count: 300 },
    };
    const { sent, client } = renderShell(<Transcript sessionId="s1" />, { frames: [snapshot] });
    const transcript = screen.getByTestId("transcript");
    await waitFor(() => expect(within(transcript).getAllByTestId("entry-user")).toHaveLength(100));

    await user.click(screen.getByRole("button", { name: "Show earlier messages" }));
    expect(sent).toEqual([
      { type: "session.history", sessionId: "s1", beforeSeq: 301, limit: 300 },
    ]);
    expect(screen.getByRole("button", { name: "Show earlier messages" })).toBeDisabled();
    act(() =>
      client.receive({
        type: "history",
        sessionId: "s1",
        beforeSeq: 301,
        entries: range(2, 300),
        earlier: { beforeSeq: 2, count: 1 },
      }),
    );
    expect(within(transcript).getByText("message 151")).toBeInTheDocument();
    expect(within(transcript).queryByText("message 150")).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Show earlier messages" }));
    expect(within(transcript).getByText("message 2")).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({
      type: "session.history",
      sessionId: "s1",
      beforeSeq: 2,
      limit: 300,
    });
    act(() =>
      client.receive({
        type: "history",
        sessionId: "s1",
        beforeSeq: 2,
        entries: [stored(1, created)],
      }),
    );
    expect(screen.queryByRole("button", { name: "Show earlier messages" })).not.toBeInTheDocument();
  });

  it("[W1] a latest window that draws nothing (one huge reply before it) fetches the earlier page instead of saying the session is empty", async () => {
    const snapshot: ServerFrame = {
      type: "snapshot",
      session: summary("s1", { lastSeq: 3 }),
      context: [stored(1, created)],
      entries: [stored(3, { kind: "turn.ended", reason: "completed" } as SessionEntry)],
      earlier: { beforeSeq: 3, count: 2 },
    };
    const { sent, client } = renderShell(<Transcript sessionId="s1" />, { frames: [snapshot] });
    expect(sent).toEqual([{ type: "session.history", sessionId: "s1", beforeSeq: 3, limit: 300 }]);
    expect(screen.queryByText(/Nothing here yet/)).not.toBeInTheDocument();
    act(() =>
      client.receive({
        type: "history",
        sessionId: "s1",
        beforeSeq: 3,
        entries: [stored(2, { kind: "assistant.message", text: "a very long reply" })],
      }),
    );
    expect(screen.getByText("a very long reply")).toBeInTheDocument();
    expect(sent).toHaveLength(1);
  });

  it("[M1][W2] an empty session on the keyless demo model says what the script answers to, in both languages", () => {
    renderEntries([]);
    expect(screen.getByText(/Type “hello”, ask “what is in this project\?”/)).toBeInTheDocument();
    renderEntries([], "zh-CN");
    expect(
      screen.getByText(/由一段脚本扮演智能体。输入“你好”，问“这个项目里有什么？”/),
    ).toBeInTheDocument();
  });

  it("[M1] an empty session on a real model has no demo hint", () => {
    const frames = [
      snapshotFrame("s1", [stored(1, { ...created, model: "openai/gpt-5" } as SessionEntry)], {
        model: "openai/gpt-5",
      }),
    ];
    renderShell(<Transcript sessionId="s1" />, { frames });
    expect(screen.getByText(/Nothing here yet/)).toBeInTheDocument();
    expect(screen.queryByText(/a script plays the agent/)).not.toBeInTheDocument();
  });

  it("[W1] shows user and assistant messages, the assistant's as markdown", () => {
    renderEntries([
      { kind: "user.message", text: "Add a cache" },
      { kind: "assistant.message", text: "## Steps\n\n1. read\n2. **write**" },
    ]);
    const transcript = screen.getByTestId("transcript");
    expect(within(transcript).getByTestId("entry-user")).toHaveTextContent("Add a cache");
    const assistant = within(transcript).getByTestId("entry-assistant");
    expect(within(assistant).getByRole("heading", { name: "Steps" })).toBeInTheDocument();
    expect(within(assistant).getAllByRole("listitem")).toHaveLength(2);
  });

  it("[R5] shows a user's HTML as the text they typed", () => {
    const { container } = renderEntries([
      { kind: "user.message", text: "<img src=x onerror=alert(1)>" },
    ]);
    expect(screen.getByTestId("entry-user")).toHaveTextContent("<img src=x onerror=alert(1)>");
    expect(container.querySelector("img")).toBeNull();
  });

  it("[W1] collapses a tool call to its name and a hint, and expands to input and result", async () => {
    const user = userEvent.setup();
    renderEntries([
      { kind: "tool.call", callId: "c1", name: "Read", input: { file_path: "src/app.ts" } },
      { kind: "tool.result", callId: "c1", name: "Read", isError: false, output: "export {}" },
    ]);
    const tool = screen.getByTestId("entry-tool");
    expect(tool).not.toHaveAttribute("open");
    expect(tool).toHaveTextContent("Read");
    expect(tool).toHaveTextContent("src/app.ts");
    expect(screen.getByText("export {}")).not.toBeVisible();

    await user.click(within(tool).getByText("Read"));
    expect(tool).toHaveAttribute("open");
    expect(screen.getByText("export {}")).toBeVisible();
    expect(within(tool).getByText("Input")).toBeVisible();
    expect(within(tool).getByText(/"file_path": "src\/app.ts"/)).toBeVisible();
  });

  it("[W1] marks a failed tool result", () => {
    renderEntries([
      { kind: "tool.call", callId: "c1", name: "Bash", input: { command: "rm -rf /" } },
      { kind: "tool.result", callId: "c1", name: "Bash", isError: true, output: "denied" },
    ]);
    expect(screen.getByTestId("entry-tool")).toHaveTextContent("failed");
  });

  it("shows notices, a turn that ended in an error and one that was stopped", () => {
    renderEntries([
      { kind: "notice", level: "error", text: "Provider unreachable" },
      { kind: "turn.ended", reason: "error", message: "rate limited" },
      { kind: "turn.ended", reason: "cancelled" },
      { kind: "turn.ended", reason: "completed" },
    ]);
    expect(screen.getByRole("alert")).toHaveTextContent("Provider unreachable");
    expect(screen.getByTestId("entry-turn-error")).toHaveTextContent("rate limited");
    expect(screen.getByText("Stopped.")).toBeInTheDocument();
  });

  it("[W2] words a model's failure and notices from their codes in the page's language", () => {
    const auth = {
      code: "model.auth",
      params: { endpoint: "api.example.com", detail: "HTTP 401" },
    };
    const english =
      "api.example.com refused the API key. Check the key configured for this provider. (HTTP 401)";
    renderEntries(
      [
        {
          kind: "notice",
          level: "info",
          text: "api.example.com is busy; trying again in 3 s. (HTTP 529: Overloaded)",
          code: "model.retryOverloaded",
          params: { endpoint: "api.example.com", seconds: "3", detail: "HTTP 529: Overloaded" },
        },
        { kind: "notice", level: "error", text: english, ...auth },
        { kind: "turn.ended", reason: "error", message: english, ...auth },
        {
          kind: "notice",
          level: "info",
          text: "The model sent an empty reply. Send the message again, or rephrase it.",
          code: "reply.empty",
        },
      ],
      "zh-CN",
    );
    expect(screen.getByRole("alert")).toHaveTextContent(
      "api.example.com 拒绝了 API 密钥。请检查为该服务商配置的密钥。（HTTP 401）",
    );
    const notices = screen.getAllByTestId("entry-notice").map((notice) => notice.textContent);
    expect(notices).toEqual([
      "api.example.com 正忙；3 秒后重试。（HTTP 529: Overloaded）",
      "api.example.com 拒绝了 API 密钥。请检查为该服务商配置的密钥。（HTTP 401）",
      "模型的回复是空的。请重新发送消息，或换个说法。",
    ]);
    expect(screen.getByTestId("entry-turn-error")).toHaveTextContent("本轮因错误而停止。");
    expect(document.body).not.toHaveTextContent(/refused|empty reply|busy/);
  });

  it("[W2] a failed model call reads wholly in Chinese; the model server's words follow apart, marked as theirs, as text", () => {
    const notice = {
      code: "model.contextTooLong",
      params: {
        endpoint: "api.example.com",
        detail: "HTTP 400",
        serverSaid: "prompt is too long: <b>210000</b> tokens",
      },
    };
    const english = `api.example.com refused the request because the conversation is too long for the model's context window. Start a new session, or pick a model with a larger context. (HTTP 400) The model server said: “${notice.params.serverSaid}”`;
    renderEntries(
      [
        { kind: "notice", level: "error", text: english, ...notice },
        { kind: "turn.ended", reason: "error", message: english, ...notice },
        {
          kind: "notice",
          level: "error",
          text: "The scripted model could not read its scenario file x.yaml. Check that the file exists and can be read.",
          code: "model.scenarioUnreadable",
          params: { scenario: "x.yaml" },
        },
      ],
      "zh-CN",
    );
    const [failure, scenario] = screen.getAllByTestId("entry-notice");
    expect(failure).toHaveTextContent(
      "api.example.com 拒绝了这次请求：对话内容超出了模型的上下文窗口。请新建一个会话，或换用上下文更大的模型。（HTTP 400）模型服务器的原话：",
    );
    const said = within(failure!).getByTestId("notice-server-said");
    expect(said).toHaveTextContent("模型服务器的原话：prompt is too long: <b>210000</b> tokens");
    expect(said.querySelector("b")).toBeNull();
    expect(scenario).toHaveTextContent(
      "脚本模型无法读取它的场景文件 x.yaml。请检查该文件是否存在、能否读取。",
    );
    expect(screen.getByTestId("entry-turn-error")).toHaveTextContent("本轮因错误而停止。");
    expect(document.body).not.toHaveTextContent(
      /refused|context window|model server said|could not read/,
    );
  });

  it("[W2] shows the stored text of an old entry, an unknown code, or values that do not fit", () => {
    renderEntries(
      [
        { kind: "notice", level: "error", text: "The model call failed: old words" },
        { kind: "notice", level: "info", text: "Words of a newer server", code: "model.later" },
        { kind: "notice", level: "info", text: "Half a notice", code: "model.stalled" },
        {
          kind: "turn.ended",
          reason: "error",
          message: "The turn failed: disk full",
          code: "turn.failed",
          params: { reason: "disk full" },
        },
      ],
      "zh-CN",
    );
    const notices = screen.getAllByTestId("entry-notice").map((notice) => notice.textContent);
    expect(notices).toEqual([
      "The model call failed: old words",
      "Words of a newer server",
      "Half a notice",
    ]);
    // No notice just above it says the same, so the line carries the failure itself.
    expect(screen.getByTestId("entry-turn-error")).toHaveTextContent(
      "本轮因错误而停止：本轮执行失败：disk full",
    );
  });

  it("[R3][W2] words a turn the store could not save in the page's language, with nothing of the driver's", () => {
    const english = TURN_NOTICE_ENGLISH["storage.full"];
    renderEntries(
      [
        { kind: "notice", level: "error", text: english, code: "storage.full" },
        { kind: "turn.ended", reason: "error", message: english, code: "storage.full" },
      ],
      "zh-CN",
    );
    expect(screen.getByTestId("entry-notice")).toHaveTextContent(
      "本轮已停止，因为它无法保存：存放 plangate 会话的磁盘已满。请腾出一些空间，然后重新发送消息。",
    );
    expect(document.body).not.toHaveTextContent(/could not be saved|disk that holds/);
  });

  it("[W2] a notice's wording comes after the first screen: the stored text shows until the page's copy of it arrives", async () => {
    const english = TURN_NOTICE_ENGLISH["storage.full"];
    const frames = [
      snapshotFrame(
        "s1",
        [created, { kind: "notice", level: "error", text: english, code: "storage.full" }].map(
          (entry, i) => stored(i + 1, entry as SessionEntry),
        ),
      ),
    ];
    const { i18n } = renderShell(<Transcript sessionId="s1" />, {
      frames,
      language: "zh-CN",
      firstScreenCopyOnly: true,
    });
    expect(i18n.hasLoadedNamespace("notices")).toBe(false);
    expect(screen.getByTestId("entry-notice")).toHaveTextContent(english);
    expect(
      await screen.findByText(/^本轮已停止，因为它无法保存：存放 plangate 会话的磁盘已满/),
    ).toBeInTheDocument();
  });

  it("[R3][W2] a turn stopped before its end could be saved says why in the page's language, until the log's own end replaces it", () => {
    const { client } = renderEntries([{ kind: "turn.started" }], "zh-CN");
    act(() => client.receive({ type: "turn.stopped", sessionId: "s1", code: "storage.readOnly" }));
    const chinese =
      "本轮已停止，因为它无法保存：plangate 的会话数据库已变为只读。请让它恢复可写，然后重新发送消息。";
    expect(screen.getByRole("alert")).toHaveTextContent(chinese);
    const english = TURN_NOTICE_ENGLISH["storage.readOnly"];
    act(() => {
      client.receive({
        type: "event",
        sessionId: "s1",
        seq: 3,
        at: 3,
        entry: { kind: "notice", level: "error", text: english, code: "storage.readOnly" },
      });
      client.receive({
        type: "event",
        sessionId: "s1",
        seq: 4,
        at: 4,
        entry: { kind: "turn.ended", reason: "error", message: english, code: "storage.readOnly" },
      });
    });
    expect(screen.queryByTestId("turn-stopped")).not.toBeInTheDocument();
    expect(screen.getAllByRole("alert").map((alert) => alert.textContent)).toEqual([chinese]);
  });

  it("[W1] shows streamed text as it arrives, then the final message in its place", () => {
    const { client } = renderEntries([{ kind: "turn.started" }]);
    act(() =>
      client.receive({ type: "assistant.delta", sessionId: "s1", text: "Working on **it**" }),
    );
    expect(screen.getByText("it").tagName).toBe("STRONG");
    act(() =>
      client.receive({
        type: "event",
        sessionId: "s1",
        seq: 3,
        at: 3,
        entry: { kind: "assistant.message", text: "Working on **it**, done" },
      }),
    );
    expect(screen.getAllByText("it")).toHaveLength(1);
    expect(screen.getByTestId("entry-assistant")).toHaveTextContent("Working on it, done");
  });

  it("[A3] shows an auto-continued question as such, with a way to answer late (X2)", () => {
    renderEntries([
      { kind: "interaction.requested", request: questionRequest("q1") },
      {
        kind: "interaction.resolved",
        interactionId: "q1",
        outcome: { type: "answered", answers: {}, auto: true },
      },
    ]);
    const line = screen.getByTestId("entry-resolved");
    expect(line).toHaveTextContent("Unanswered — continued automatically");
    expect(within(line).getByRole("button", { name: "Answer now" })).toBeInTheDocument();
  });

  it("[Q8] words answered, dismissed and aborted interactions", () => {
    renderEntries([
      { kind: "interaction.requested", request: questionRequest("q1") },
      {
        kind: "interaction.resolved",
        interactionId: "q1",
        outcome: {
          type: "answered",
          auto: false,
          answers: { "Which database for q1?": { labels: ["Postgres"], other: "with pgvector" } },
        },
      },
      { kind: "interaction.requested", request: questionRequest("q2") },
      { kind: "interaction.resolved", interactionId: "q2", outcome: { type: "cancelled" } },
      { kind: "interaction.requested", request: questionRequest("q3") },
      {
        kind: "interaction.resolved",
        interactionId: "q3",
        outcome: { type: "aborted", reason: "turn cancelled" },
      },
    ]);
    expect(screen.getAllByTestId("entry-resolved").map((n) => n.textContent)).toEqual([
      "Answered: Postgres, with pgvector",
      "Questions dismissed",
      "Closed with no one answering: turn cancelled",
    ]);
  });

  it("[P8] shows an approved plan as a card with its markdown", () => {
    renderEntries([
      { kind: "plan.approved", plan: "# The plan\n\n- step one", path: ".zcode/plans/plan-s1.md" },
    ]);
    const card = screen.getByRole("region", { name: "Approved plan" });
    expect(within(card).getByRole("heading", { name: "The plan" })).toBeInTheDocument();
    expect(card).toHaveTextContent(".zcode/plans/plan-s1.md");
  });
});
