import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { setUpHostModels } from "../models/hostModels.ts";
import { openAIError, openAIStream } from "../models/testing/fakeOpenAI.ts";
import {
  type FakeReply,
  type LoopbackApi,
  startLoopbackApi,
} from "../models/testing/loopbackApi.ts";
import { tempDir } from "../testing/helpers.ts";
import { startTestServer, type TestServer } from "../testing/testServer.ts";
import { TestClient } from "../testing/wsClient.ts";

const SECRET = "sk-wired-secret-0123456789";
const todos = (done: number) =>
  ["Read the code", "Change it", "Test it"].map((content, index) => ({
    content,
    status: index < done ? "completed" : index === done ? "in_progress" : "pending",
    priority: "medium",
  }));

/** plangate on the models a `plangate.json` in `workspace` names, set up as `npm start` does. */
async function serverOnConfig(workspace: string, config: unknown): Promise<TestServer> {
  const configPath = join(workspace, "plangate.json");
  writeFileSync(configPath, JSON.stringify(config));
  const models = await setUpHostModels({ configPath, workspace, env: {}, cwd: workspace });
  return startTestServer({
    model: models.model,
    catalog: models.catalog,
    providerFor: (ref) => models.providerFor(ref),
    listModels: () => models.listModels(),
  });
}

describe("real models wired into the server (M1, M2, T2)", () => {
  let dir: ReturnType<typeof tempDir>;
  let api: LoopbackApi;
  let t: TestServer;

  beforeEach(async () => {
    dir = tempDir();
    api = await startLoopbackApi([
      openAIStream(
        [
          { content: "Planning " },
          { content: "the work." },
          {
            toolCalls: [
              {
                index: 0,
                id: "call_1",
                name: "TodoWrite",
                arguments: JSON.stringify({ todos: todos(0) }),
              },
              { index: 1, id: "call_2", name: "ListModels", arguments: "{}" },
            ],
          },
        ],
        "tool_calls",
      ),
      openAIStream([{ content: "All set." }]),
    ]);
    t = await serverOnConfig(dir.path, {
      providers: {
        local: {
          kind: "openai",
          name: "Loopback",
          baseURL: `${api.origin}/v1`,
          apiKey: SECRET,
          models: [{ id: "fake-model" }],
        },
        cloud: { kind: "openai", models: [{ id: "gpt-x" }] },
      },
    });
  });
  afterEach(async () => {
    await t.stop();
    await api.close();
    dir.remove();
  });

  it("[M1] switches a session to a configured model and runs its turn; no key reaches a client or the log", async () => {
    const { client, welcome } = await TestClient.greeted(t.wsUrl, t.browserHeaders);
    expect(welcome.models.map((m) => m.ref)).toEqual(
      expect.arrayContaining(["scripted/demo", "local/fake-model", "cloud/gpt-x"]),
    );
    expect(welcome.models.find((m) => m.ref === "cloud/gpt-x")?.disabled).toMatch(/API key/);
    client.send({ type: "session.create" });
    const { session } = await client.next("snapshot");
    expect(session.model).toBe("scripted/demo");

    client.send({ type: "model.set", sessionId: session.id, model: "cloud/gpt-x" });
    expect(await client.next("error")).toMatchObject({
      code: "BAD_MODEL",
      message: expect.stringMatching(/disabled.*Call ListModels/s),
    });
    client.send({ type: "model.set", sessionId: session.id, model: "FAKE-MODEL" });
    const changed = await client.next("event", (f) => f.entry.kind === "session.modelChanged");
    expect(changed.entry).toEqual({ kind: "session.modelChanged", model: "local/fake-model" });

    client.send({ type: "prompt", sessionId: session.id, text: "plan the change" });
    const update = await client.next("event", (f) => f.entry.kind === "todos.updated");
    expect(update.entry).toEqual({ kind: "todos.updated", todos: todos(0) });
    await client.next("event", (f) => f.entry.kind === "turn.ended");

    const events = client.events(session.id).map((f) => f.entry);
    expect(events).toContainEqual({ kind: "assistant.message", text: "Planning the work." });
    expect(events).toContainEqual({ kind: "assistant.message", text: "All set." });
    const listed = events.find((e) => e.kind === "tool.result" && e.name === "ListModels");
    expect(listed?.kind === "tool.result" && listed.output).toMatch(
      /local\/fake-model \| Loopback .*\[current\]/,
    );
    const deltas = client.frames.filter((f) => f.type === "assistant.delta");
    expect(deltas.map((f) => (f.type === "assistant.delta" ? f.text : "")).join("")).toContain(
      "Planning the work.",
    );

    // The key went to the model's server, and nowhere else.
    expect(api.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
    const second = await TestClient.greeted(t.wsUrl, t.browserHeaders);
    second.client.send({ type: "session.open", sessionId: session.id });
    const snapshot = await second.client.next("snapshot");
    expect(JSON.stringify(second.welcome)).not.toContain(SECRET);
    expect(JSON.stringify(snapshot)).not.toContain(SECRET);
    expect(JSON.stringify(client.frames)).not.toContain(SECRET);
    client.close();
    second.client.close();
  });

  it("[M3][R2] with the config broken while the server runs, picking a model says why instead of an internal error", async () => {
    const { client } = await TestClient.greeted(t.wsUrl, t.browserHeaders);
    client.send({ type: "session.create" });
    const { session } = await client.next("snapshot");
    writeFileSync(join(dir.path, "plangate.json"), "{ not json");
    client.send({ type: "model.set", sessionId: session.id, model: "local/fake-model" });
    const refused = await client.next("error", (frame) => frame.ref === "model.set");
    expect(refused.code).toBe("BAD_MODEL");
    expect(refused.message).toMatch(/plangate\.json/);
    client.close();
  });
});

describe("a model's broken replies (R2, M1)", () => {
  let dir: ReturnType<typeof tempDir>;
  let api: LoopbackApi | undefined;
  let t: TestServer | undefined;

  /** A server on a configured model whose API answers with these replies, in order. */
  async function serve(replies: FakeReply[]) {
    dir = tempDir();
    api = await startLoopbackApi(replies);
    const server = await serverOnConfig(dir.path, {
      providers: {
        local: {
          kind: "openai",
          baseURL: `${api.origin}/v1`,
          apiKey: SECRET,
          models: [{ id: "fake-model" }],
        },
      },
      defaultModel: "local/fake-model",
    });
    t = server;
    const { client } = await TestClient.greeted(server.wsUrl, server.browserHeaders);
    client.send({ type: "session.create" });
    const { session } = await client.next("snapshot");
    expect(session.model).toBe("local/fake-model");
    return { client, sessionId: session.id, api };
  }
  afterEach(async () => {
    await t?.stop();
    await api?.close();
    dir.remove();
  });

  it("[R2][M1] arguments that are not JSON end nothing: the call gets an error result and the model goes on", async () => {
    const { client, sessionId, api } = await serve([
      openAIStream(
        [{ toolCalls: [{ index: 0, id: "call_bad", name: "Read", arguments: '{"path": "READ' }] }],
        "tool_calls",
      ),
      openAIStream([{ content: "Recovered." }]),
    ]);
    client.send({ type: "prompt", sessionId, text: "read the readme" });
    const ended = await client.next("event", (f) => f.entry.kind === "turn.ended");
    expect(ended.entry).toEqual({ kind: "turn.ended", reason: "completed" });

    const entries = client.events(sessionId).map((f) => f.entry);
    const result = entries.find((e) => e.kind === "tool.result");
    expect(result).toMatchObject({ callId: "call_bad", name: "Read", isError: true });
    expect(result?.kind === "tool.result" && result.output).toMatch(/Read was not run/);
    expect(entries).toContainEqual({ kind: "assistant.message", text: "Recovered." });
    // The model heard why, as the result of its call.
    expect(JSON.stringify(api.requests[1]?.body)).toContain("Read was not run");
    client.close();
  });

  it("[M1] a reply cut at the model's output limit is followed by a notice saying so", async () => {
    const { client, sessionId } = await serve([
      openAIStream([{ content: "The first half of a long" }], "length"),
    ]);
    client.send({ type: "prompt", sessionId, text: "write a lot" });
    await client.next("event", (f) => f.entry.kind === "turn.ended");
    const entries = client.events(sessionId).map((f) => f.entry);
    expect(entries).toContainEqual({ kind: "assistant.message", text: "The first half of a long" });
    expect(entries).toContainEqual(
      expect.objectContaining({
        kind: "notice",
        code: "reply.outputLimit",
        text: expect.stringMatching(/output limit/),
      }),
    );
    client.close();
  });

  it("[M1] a model that answers a message with nothing at all is followed by a notice saying so", async () => {
    const { client, sessionId } = await serve([openAIStream([])]);
    client.send({ type: "prompt", sessionId, text: "hello?" });
    const ended = await client.next("event", (f) => f.entry.kind === "turn.ended");
    expect(ended.entry).toEqual({ kind: "turn.ended", reason: "completed" });
    const entries = client.events(sessionId).map((f) => f.entry);
    expect(entries).toContainEqual(
      expect.objectContaining({
        kind: "notice",
        code: "reply.empty",
        text: expect.stringMatching(/empty reply/),
      }),
    );
    client.close();
  });

  it("[W2][M1] a refused key ends the turn with a coded notice the page can word; the English stays beside it", async () => {
    const { client, sessionId, api } = await serve([
      openAIError(401, `Incorrect API key provided: ${SECRET}`, "invalid_api_key"),
    ]);
    client.send({ type: "prompt", sessionId, text: "hello" });
    const ended = await client.next("event", (f) => f.entry.kind === "turn.ended");
    const endpoint = new URL(api.origin).host;
    const notice = {
      code: "model.auth",
      params: { endpoint, detail: "HTTP 401" },
    };
    const text = `${endpoint} refused the API key. Check the key configured for this provider. (HTTP 401)`;
    expect(ended.entry).toEqual({ kind: "turn.ended", reason: "error", message: text, ...notice });
    expect(client.events(sessionId).map((f) => f.entry)).toContainEqual({
      kind: "notice",
      level: "error",
      text,
      ...notice,
    });
    expect(JSON.stringify(client.frames)).not.toContain(SECRET);
    client.close();
  });

  it("[W2][M1] a rate-limited request shows as a notice in the turn while it is retried", async () => {
    const { client, sessionId, api } = await serve([
      {
        ...openAIError(429, "Slow down", "rate_limit_exceeded"),
        headers: { "retry-after-ms": "20" },
      },
      openAIStream([{ content: "Made it." }]),
    ]);
    client.send({ type: "prompt", sessionId, text: "hello" });
    const ended = await client.next("event", (f) => f.entry.kind === "turn.ended");
    expect(ended.entry).toEqual({ kind: "turn.ended", reason: "completed" });
    const entries = client.events(sessionId).map((f) => f.entry);
    const retry = entries.findIndex((e) => e.kind === "notice");
    expect(entries[retry]).toEqual({
      kind: "notice",
      level: "info",
      text: `${new URL(api.origin).host} is rate limiting requests; trying again in 1 s. (HTTP 429) The model server said: “Slow down”`,
      code: "model.retryRateLimited",
      params: {
        endpoint: new URL(api.origin).host,
        seconds: "1",
        detail: "HTTP 429",
        serverSaid: "Slow down",
      },
    });
    expect(entries.slice(retry + 1, retry + 2)).toEqual([
      { kind: "assistant.message", text: "Made it." },
    ]);
    expect(api.requests).toHaveLength(2);
    client.close();
  });
});
