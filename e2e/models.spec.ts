import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect as baseExpect, type Locator, type Page } from "@playwright/test";
import { openAIError, openAIStream } from "../src/server/models/testing/fakeOpenAI.ts";
import { type LoopbackApi, startLoopbackApi } from "../src/server/models/testing/loopbackApi.ts";
import { expect, test } from "./fixtures.ts";
import { ShellPage } from "./pages/shell.ts";

const steps = ["Read the session store", "Add the cache layer", "Write the tests"];
const todoList = (done: number) =>
  steps.map((content, index) => ({
    content,
    status: index < done ? "completed" : index === done ? "in_progress" : "pending",
    priority: "medium",
  }));
const todoWriteCall = (id: string, done: number) => ({
  toolCalls: [
    {
      index: 0,
      id,
      name: "TodoWrite",
      arguments: JSON.stringify({ todos: todoList(done) }),
    },
  ],
});

/** The todo sidebar as a user sees it. */
class TodoSidebar {
  readonly panel: Locator;
  readonly progress: Locator;
  readonly items: Locator;

  constructor(page: Page) {
    this.panel = page.getByRole("complementary", { name: "Todos" });
    this.progress = this.panel.getByTestId("todo-progress");
    this.items = this.panel.getByTestId("todo-item");
  }

  async expectStatuses(statuses: string[]): Promise<void> {
    for (const [index, status] of statuses.entries()) {
      await baseExpect(this.items.nth(index)).toHaveAttribute("data-status", status);
    }
  }
}

test.use({ serverArgs: ["--no-build"] });

test.describe("a real model on loopback", () => {
  let api: LoopbackApi;

  test.beforeEach(async () => {
    api = await startLoopbackApi([
      // Prompt 1: streamed text and a first list, then a closing line.
      openAIStream(
        [{ content: "Planning " }, { content: "the cache work." }, todoWriteCall("call_a", 0)],
        "tool_calls",
      ),
      openAIStream([{ content: "Three steps are on the list." }]),
      // Prompt 2: the first step is done.
      openAIStream([todoWriteCall("call_b", 1)], "tool_calls"),
      openAIStream([{ content: "The session store is read; " }, { content: "next the cache." }]),
    ]);
  });
  test.afterEach(async () => {
    await api.close();
  });

  test("[M1][T6] the user switches the session to an OpenAI-compatible model; its reply streams in and its todos fill the sidebar", async ({
    page,
    server,
  }) => {
    // The catalog reads the config on every call, so a file written after start-up counts.
    mkdirSync(join(server.workspace, ".zcode"), { recursive: true });
    writeFileSync(
      join(server.workspace, ".zcode", "plangate.json"),
      JSON.stringify({
        providers: {
          loopback: {
            kind: "openai",
            name: "Loopback",
            baseURL: `${api.origin}/v1`,
            models: [{ id: "fake-model", name: "Fake model" }],
          },
        },
      }),
    );
    const shell = new ShellPage(page);
    const todos = new TodoSidebar(page);
    await shell.open(server.url);
    await shell.newSession();

    const picker = page.getByRole("combobox", { name: "Model" });
    await expect(picker).toHaveValue("scripted/demo");
    await expect(picker.getByRole("option", { name: "Fake model" })).toBeEnabled();
    await picker.selectOption("loopback/fake-model");
    await expect(shell.transcript).toContainText("Model switched to loopback/fake-model");
    await expect(picker).toHaveValue("loopback/fake-model");

    await shell.send("Plan the cache work");
    await expect(
      shell.assistantMessages.filter({ hasText: "Planning the cache work." }),
    ).toBeVisible();
    await expect(todos.progress).toHaveText("0 / 3 done");
    await todos.expectStatuses(["in_progress", "pending", "pending"]);
    await expect(shell.assistantMessages.last()).toHaveText(/Three steps are on the list\./);

    await shell.send("Go on");
    await expect(todos.progress).toHaveText("1 / 3 done");
    await todos.expectStatuses(["completed", "in_progress", "pending"]);
    await expect(shell.assistantMessages.last()).toHaveText(
      /The session store is read; next the cache\./,
    );

    const first = api.requests[0]?.body as {
      model: string;
      tools: Array<{ function: { name: string } }>;
    };
    expect(first.model).toBe("fake-model");
    expect(first.tools.map((tool) => tool.function.name)).toContain("TodoWrite");

    // After a reload the model and the list come back from the server.
    await page.reload();
    await shell.waitConnected();
    await expect(picker).toHaveValue("loopback/fake-model");
    await expect(todos.progress).toHaveText("1 / 3 done");
  });
});

/** plangate's config, naming one OpenAI-compatible model on the loopback API. */
function configureLoopback(workspace: string, api: LoopbackApi): void {
  mkdirSync(join(workspace, ".zcode"), { recursive: true });
  writeFileSync(
    join(workspace, ".zcode", "plangate.json"),
    JSON.stringify({
      providers: {
        loopback: {
          kind: "openai",
          name: "Loopback",
          baseURL: `${api.origin}/v1`,
          models: [{ id: "fake-model", name: "Fake model" }],
        },
      },
    }),
  );
}

test.describe("a model's trouble on a Chinese page", () => {
  test.use({ locale: "zh-CN" });
  let api: LoopbackApi;

  test.beforeEach(async () => {
    api = await startLoopbackApi([
      // Prompt 1: rate limited once, then answered.
      { ...openAIError(429, "Slow down", "rate_limit_exceeded"), headers: { "retry-after": "1" } },
      openAIStream([{ content: "好的，已完成。" }]),
      // Prompt 2: the key is refused.
      openAIError(401, "Incorrect API key provided", "invalid_api_key"),
      // Prompt 3: the conversation no longer fits the model's context.
      openAIError(
        400,
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
        "invalid_request_error",
        "context_length_exceeded",
      ),
    ]);
  });
  test.afterEach(async () => {
    await api.close();
  });

  test("[W2][M1] a retry, a refused key and a request too long for the context read in Chinese, with the server's own words kept apart", async ({
    page,
    server,
  }) => {
    configureLoopback(server.workspace, api);
    const shell = new ShellPage(page);
    await shell.open(server.url);
    await shell.newSession();
    await page.getByRole("combobox", { name: "模型" }).selectOption("loopback/fake-model");
    await expect(shell.transcript).toContainText("模型已切换为 loopback/fake-model");

    const notices = page.getByTestId("entry-notice");
    await shell.send("整理一下");
    await expect(notices.first()).toHaveText(
      /^127\.0\.0\.1:\d+ 正在限制请求频率；1 秒后重试。（HTTP 429）模型服务器的原话：Slow down$/,
    );
    await expect(notices.first().getByTestId("notice-server-said")).toHaveText(
      "模型服务器的原话：Slow down",
    );
    await expect(shell.assistantMessages.last()).toHaveText(/好的，已完成。/);

    await shell.send("继续");
    await expect(page.getByRole("alert")).toHaveText(
      /^127\.0\.0\.1:\d+ 拒绝了 API 密钥。请检查为该服务商配置的密钥。（HTTP 401）$/,
    );
    await expect(page.getByTestId("entry-turn-error")).toHaveText("本轮因错误而停止。");

    await shell.send("再来一次");
    await expect(notices.last()).toHaveText(
      /^127\.0\.0\.1:\d+ 拒绝了这次请求：对话内容超出了模型的上下文窗口。请新建一个会话，或换用上下文更大的模型。（HTTP 400）模型服务器的原话：This model's maximum context length is 8192 tokens\. However, your messages resulted in 9000 tokens\.$/,
    );
    await expect(shell.transcript).not.toContainText(
      /rate limiting|refused the API key|context window|The model server said/,
    );
  });
});

test.describe("scripted lane", () => {
  test.use({ scenario: "todos" });

  test("[T6] the sidebar follows the scripted model's todo list as it moves forward", async ({
    page,
    server,
  }) => {
    const shell = new ShellPage(page);
    const todos = new TodoSidebar(page);
    await shell.open(server.url);
    await shell.newSession();
    await expect(todos.panel).toHaveCount(0);

    await shell.send("Make a plan");
    await expect(todos.progress).toHaveText("0 / 3 done");
    await todos.expectStatuses(["in_progress", "pending", "pending"]);
    await expect(todos.panel.getByRole("progressbar", { name: "Todo progress" })).toHaveAttribute(
      "aria-valuetext",
      "0 / 3 done",
    );

    await shell.send("next");
    await expect(todos.progress).toHaveText("1 / 3 done");
    await todos.expectStatuses(["completed", "in_progress", "pending"]);
    await expect(shell.assistantMessages.last()).toHaveText(/The first step is done\./);
  });
});
