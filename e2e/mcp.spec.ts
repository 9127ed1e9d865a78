import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { expect, test } from "./fixtures.ts";
import { connectAgent } from "./mcpAgent.ts";
import { ShellPage } from "./pages/shell.ts";

const QUESTION = "Which test runner should the project use?";

// The server's time moves only when a test steps it (`server.clock`).
test.use({
  steppedClock: true,
  serverArgs: ["--no-build", "--grace-ms", "1000", "--deadline-ms", "120000"],
});

test("[X1][A2][W1] an agent over MCP asks; its session appears, the card counts down, and the user's answer and note reach the agent", async ({
  page,
  server,
}) => {
  // The page's clock stands at the server's time, timers included: the chip's reading is
  // known to the second, and its one-second redraw comes when the test steps it.
  await page.clock.install({ time: server.clock.now() - 60_000 });
  await page.clock.pauseAt(server.clock.now());
  const shell = new ShellPage(page);
  await shell.open(server.url);
  const agent = await connectAgent(server);
  const call = agent.callTool({
    name: "ask_user_question",
    arguments: {
      questions: [
        {
          question: QUESTION,
          header: "Tests",
          options: [
            { label: "Vitest", description: "Fast, Vite-native" },
            { label: "Jest", description: "The long-time default" },
          ],
          multiSelect: false,
        },
      ],
    },
  });

  const item = page.getByTestId("session-item").filter({ hasText: "outside-agent" });
  await item.click();
  await expect(page.getByTestId("model-external")).toHaveText("outside-agent over MCP");
  const card = page.getByRole("region", { name: "Questions from the agent" });
  await expect(card.getByText(QUESTION)).toBeVisible();
  // Asked at the server's standing time: none of the 1 s grace has passed, so no chip yet.
  await expect(card.getByRole("timer")).toHaveCount(0);
  await server.clock.advance(1_000);
  await page.clock.fastForward(1_000);
  // 119 s to the 120 s deadline.
  await expect(card.getByRole("timer")).toHaveText("Continues in 1:59");
  await page.clock.resume();

  await card.getByRole("radio", { name: "Vitest" }).check();
  await card.getByRole("button", { name: "Submit" }).click();
  const reply = (await call) as { content: { text: string }[]; isError: boolean };
  expect(reply.isError).toBe(false);
  expect(reply.content[0]?.text).toContain("→ Vitest");

  // The message box writes to the agent; it hears it with its next result.
  await expect(shell.composer).toHaveAttribute("placeholder", /outside-agent/);
  await shell.send("Keep the snapshot tests");
  await expect(shell.userMessages.filter({ hasText: "Keep the snapshot tests" })).toBeVisible();
  const next = (await agent.callTool({ name: "write_todos", arguments: { todos: [] } })) as {
    content: { text: string }[];
  };
  expect(next.content[0]?.text).toContain("> Keep the snapshot tests");
  await agent.close();
});

test("[B8][B3] a restart mid-call: the agent is told to retry, its retried call lands on the same card, and the person's answer reaches it", async ({
  page,
  server,
}) => {
  const shell = new ShellPage(page);
  await shell.open(server.url);
  const agent = await connectAgent(server);
  const ask = {
    name: "ask_user_question",
    arguments: {
      questions: [
        {
          question: "Which package manager?",
          header: "Packages",
          options: [{ label: "npm" }, { label: "pnpm" }],
          multiSelect: false,
        },
      ],
    },
  };
  const cut = agent.callTool(ask).then(
    () => undefined,
    (error: unknown) => error,
  );
  await page.getByTestId("session-item").filter({ hasText: "outside-agent" }).click();
  const card = page.getByRole("region", { name: "Questions from the agent" });
  await expect(card.getByText("Which package manager?")).toBeVisible();

  await server.restart("SIGTERM");
  expect(String(await cut)).toMatch(/again with the same arguments/);
  await agent.close().catch(() => {});
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "open", {
    timeout: 20_000,
  });

  const again = await connectAgent(server);
  const retried = again.callTool(ask);
  await expect(card.getByText("Which package manager?")).toBeVisible();
  await card.getByRole("radio", { name: "pnpm" }).check();
  await card.getByRole("button", { name: "Submit" }).click();
  const reply = (await retried) as { content: { text: string }[]; isError: boolean };
  expect(reply.isError).toBe(false);
  expect(reply.content[0]?.text).toContain("→ pnpm");
  await expect(page.getByTestId("session-item").filter({ hasText: "outside-agent" })).toHaveCount(
    1,
  );
  await again.close();
});

test("[X1][B3][B8] an agent asks as an MCP task: nothing is held while the person thinks, the server is killed, and the answer given after the restart reaches the agent's next poll", async ({
  page,
  server,
}) => {
  const shell = new ShellPage(page);
  await shell.open(server.url);
  const agent = await connectAgent(server, "task-agent");
  const { task } = await agent.request(
    {
      method: "tools/call",
      params: {
        name: "ask_user_question",
        arguments: {
          questions: [
            {
              question: "Which license?",
              header: "License",
              options: [{ label: "MIT" }, { label: "Apache-2.0" }],
              multiSelect: false,
            },
          ],
        },
      },
    },
    CreateTaskResultSchema,
    { task: { ttl: 600_000 } },
  );
  // The call's reply is its task, before anyone answered.
  expect(task.status).toBe("working");
  await page.getByTestId("session-item").filter({ hasText: "task-agent" }).click();
  const card = page.getByRole("region", { name: "Questions from the agent" });
  await expect(card.getByText("Which license?")).toBeVisible();
  expect((await agent.experimental.tasks.getTask(task.taskId)).status).toBe("working");

  await server.restart("SIGKILL");
  await agent.close().catch(() => {});
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "open", {
    timeout: 20_000,
  });
  await expect(card.getByText("Which license?")).toBeVisible();
  await card.getByRole("radio", { name: "Apache-2.0" }).check();
  await card.getByRole("button", { name: "Submit" }).click();
  await expect(card).toHaveCount(0);

  // The agent comes back (a new MCP session, same name) and asks for its task's result.
  const again = await connectAgent(server, "task-agent");
  const result = await again.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
  expect(result.isError).toBe(false);
  expect(result.content[0]).toMatchObject({ type: "text" });
  expect(JSON.stringify(result.content)).toContain("→ Apache-2.0");
  expect(result.structuredContent).toMatchObject({
    status: "answered",
    answers: { "Which license?": { labels: ["Apache-2.0"] } },
  });
  await again.close();
});
