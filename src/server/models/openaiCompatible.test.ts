import type { TurnNotice } from "../../shared/turnNotices.ts";
import { createOpenAICompatibleProvider } from "./openaiCompatible.ts";
import type { ModelRequest } from "./provider.ts";
import { ModelError } from "./provider.ts";
import { openAIError, openAIStream } from "./testing/fakeOpenAI.ts";
import {
  closedPortOrigin,
  type FakeReply,
  type LoopbackApi,
  startLoopbackApi,
} from "./testing/loopbackApi.ts";

const SECRET = "sk-test-secret-0123456789";
let api: LoopbackApi | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function providerFor(
  replies: FakeReply[],
  extra: { reasoningLevel?: string; streamIdleMs?: number; maxRetries?: number } = {},
) {
  api = await startLoopbackApi(replies);
  return createOpenAICompatibleProvider({
    ref: "local/fake-model",
    model: "fake-model",
    baseURL: `${api.origin}/v1`,
    apiKey: SECRET,
    maxRetries: 0,
    ...extra,
  });
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: "You are terse.",
    messages: [{ role: "user", content: "hi" }],
    tools: [],
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function modelErrorOf(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ModelError) return error;
    throw error;
  }
  throw new Error("expected a ModelError");
}

describe("OpenAI-compatible provider", () => {
  it("[M1] streams text in order through onText and returns it whole", async () => {
    const provider = await providerFor([
      openAIStream([{ content: "Hel" }, { content: "lo, " }, { content: "world" }]),
    ]);
    const deltas: string[] = [];
    const response = await provider.complete(request({ onText: (d) => deltas.push(d) }));
    expect(deltas).toEqual(["Hel", "lo, ", "world"]);
    expect(response).toEqual({ text: "Hello, world", toolCalls: [], stopReason: "end" });
  });

  it("[M1] assembles tool calls streamed across chunks", async () => {
    const provider = await providerFor([
      openAIStream(
        [
          { content: "Let me check." },
          { toolCalls: [{ index: 0, id: "call_a", name: "ReadFile", arguments: "" }] },
          { toolCalls: [{ index: 0, arguments: '{"pa' }] },
          { toolCalls: [{ index: 1, id: "call_b", name: "TodoWrite", arguments: '{"todos"' }] },
          { toolCalls: [{ index: 0, arguments: 'th":"src/a.ts"}' }] },
          { toolCalls: [{ index: 1, arguments: ":[]}" }] },
        ],
        "tool_calls",
      ),
    ]);
    const response = await provider.complete(request());
    expect(response.text).toBe("Let me check.");
    expect(response.stopReason).toBe("tool_use");
    expect(response.toolCalls).toEqual([
      { id: "call_a", name: "ReadFile", input: { path: "src/a.ts" } },
      { id: "call_b", name: "TodoWrite", input: { todos: [] } },
    ]);
  });

  it("[M1] sends the model, system prompt, history with tool results, and tools", async () => {
    const provider = await providerFor([openAIStream([{ content: "ok" }])], {
      reasoningLevel: "high",
    });
    await provider.complete(
      request({
        messages: [
          { role: "user", content: "read it" },
          {
            role: "assistant",
            content: "",
            toolCalls: [{ id: "call_1", name: "ReadFile", input: { path: "a.ts" } }],
          },
          {
            role: "tool",
            toolCallId: "call_1",
            name: "ReadFile",
            content: "x = 1",
            isError: false,
          },
          {
            role: "assistant",
            content: "And the other?",
            toolCalls: [{ id: "call_2", name: "ReadFile", input: { path: "../b" } }],
          },
          {
            role: "tool",
            toolCallId: "call_2",
            name: "ReadFile",
            content: "outside",
            isError: true,
          },
        ],
        tools: [
          {
            name: "ReadFile",
            description: "Reads a file.",
            inputSchema: { type: "object", properties: { path: { type: "string" } } },
          },
        ],
      }),
    );
    const [sent] = api?.requests ?? [];
    expect(sent?.path).toBe("/v1/chat/completions");
    expect(sent?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(sent?.body).toEqual({
      model: "fake-model",
      stream: true,
      reasoning_effort: "high",
      messages: [
        { role: "system", content: "You are terse." },
        { role: "user", content: "read it" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_1",
              type: "function",
              function: { name: "ReadFile", arguments: '{"path":"a.ts"}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "x = 1" },
        {
          role: "assistant",
          content: "And the other?",
          tool_calls: [
            {
              id: "call_2",
              type: "function",
              function: { name: "ReadFile", arguments: '{"path":"../b"}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_2", content: "Error: outside" },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "ReadFile",
            description: "Reads a file.",
            parameters: { type: "object", properties: { path: { type: "string" } } },
          },
        },
      ],
    });
  });

  it("[M1] reports a refused key as an auth error without the key", async () => {
    const provider = await providerFor([
      openAIError(401, `Incorrect API key provided: ${SECRET}`, "invalid_api_key"),
    ]);
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("auth");
    expect(error.message).toContain("HTTP 401");
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain("sk-test");
  });

  it("[M1] reports HTTP 429 as a rate limit", async () => {
    const provider = await providerFor([openAIError(429, "Slow down", "rate_limit_exceeded")]);
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("rate_limit");
    expect(error.message).toContain("Slow down");
  });

  it("[M1] reports a refused connection as a network error", async () => {
    const provider = createOpenAICompatibleProvider({
      ref: "local/x",
      model: "x",
      baseURL: `${await closedPortOrigin()}/v1`,
      apiKey: SECRET,
      maxRetries: 0,
    });
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("network");
    expect(error.message).toContain("Could not connect to 127.0.0.1");
    expect(error.message).not.toContain(SECRET);
  });

  it("[M1][R2] a tool call with malformed JSON arguments comes back as a call the model is told to repeat", async () => {
    const provider = await providerFor([
      openAIStream(
        [{ toolCalls: [{ index: 0, id: "call_x", name: "ReadFile", arguments: '{"path": ' }] }],
        "tool_calls",
      ),
      openAIStream(
        [{ toolCalls: [{ index: 0, id: "call_y", name: "Write", arguments: '{"content": "lo' }] }],
        "length",
      ),
    ]);
    const [broken] = (await provider.complete(request())).toolCalls;
    expect(broken).toMatchObject({ id: "call_x", name: "ReadFile", input: {} });
    expect(broken?.inputError).toMatch(/ReadFile was not run: .*not valid JSON/);
    const [cut] = (await provider.complete(request())).toolCalls;
    expect(cut?.inputError).toMatch(/cut off where the reply reached its output limit/);
  });

  it("[M1] reports an unparseable stream chunk as a bad response", async () => {
    const provider = await providerFor([{ sse: ["data: {not json\n\n", "data: [DONE]\n\n"] }]);
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("bad_response");
  });

  it("[M1][R3] a stream that closes before its finish reason is a reply cut off, not an answer", async () => {
    const reply = openAIStream([{ content: "partial " }, { content: "answer" }]);
    const whole = "sse" in reply ? reply.sse : [];
    // The connection closes mid-reply: no finish_reason chunk, no [DONE].
    const provider = await providerFor([{ sse: whole.slice(0, 3) }]);
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("bad_response");
    expect(error.message).toMatch(/before the reply was finished/);
  });

  it("[M1][R3] a reply that goes quiet midway is given up after the idle time, saying so", async () => {
    const provider = await providerFor(
      [openAIStream([{ content: "partial" }], "stop", { hold: true })],
      { streamIdleMs: 200 },
    );
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("network");
    expect(error.message).toMatch(/sent nothing for 0 s in the middle of the reply/);
  });

  it("[M1] reports a 200 answer that is not a stream as a bad response", async () => {
    const provider = await providerFor([{ status: 200, json: { hello: "not a stream" } }]);
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("bad_response");
  });

  it("[M1] maps an error object sent inside the stream", async () => {
    const provider = await providerFor([
      {
        sse: [
          `data: ${JSON.stringify({ error: { message: "quota used up", code: "rate_limit_exceeded" } })}\n\n`,
        ],
      },
    ]);
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("rate_limit");
    expect(error.message).toContain("quota used up");
  });

  it("[M1] a connection that breaks mid-reply is a lost connection, not one that never connected", async () => {
    const reply = openAIStream([{ content: "partial " }, { content: "answer" }]);
    const provider = await providerFor([
      { sse: "sse" in reply ? reply.sse.slice(0, 2) : [], reset: true },
    ]);
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("network");
    expect(error.notice.code).toBe("model.connectionLost");
    expect(error.message).toMatch(
      /connection to 127\.0\.0\.1:\d+ broke before the reply was finished/,
    );
    expect(error.message).not.toMatch(/Could not connect/);
  });

  it("[M1] a connection reset before any response is lost too, and sent again first", async () => {
    const provider = await providerFor(
      [{ reset: "before-response" }, openAIStream([{ content: "second try" }])],
      { maxRetries: 1 },
    );
    const notices: TurnNotice[] = [];
    const response = await provider.complete(request({ onNotice: (n) => notices.push(n) }));
    expect(response.text).toBe("second try");
    expect(notices).toEqual([
      {
        code: "model.retry",
        params: {
          endpoint: expect.stringMatching(/^127\.0\.0\.1:/),
          seconds: "1",
          detail: expect.stringMatching(/^(ECONNRESET|UND_ERR_SOCKET)$/),
        },
      },
    ]);
    await api?.close();
    const once = await providerFor([{ reset: "before-response" }]);
    const error = await modelErrorOf(once.complete(request()));
    expect(error.notice.code).toBe("model.connectionLost");
  });

  it("[M1] a server_error inside the stream is the server's own failure, not an HTTP 400", async () => {
    const provider = await providerFor([
      {
        sse: [
          `data: ${JSON.stringify({ error: { message: "The server had an error.", type: "server_error", code: null } })}\n\n`,
        ],
      },
    ]);
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("server");
    expect(error.notice).toEqual({
      code: "model.serverError",
      params: {
        endpoint: expect.stringMatching(/^127\.0\.0\.1:/),
        detail: "server_error",
        serverSaid: "The server had an error.",
      },
    });
    expect(error.message).not.toContain("HTTP");
  });

  it("[W2][M1] a request too large for the model's context is its own notice, as OpenAI, vLLM and llama.cpp say it", async () => {
    const replies = [
      openAIError(
        400,
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
        "invalid_request_error",
        "context_length_exceeded",
      ),
      openAIError(
        400,
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
        "BadRequestError",
        400,
      ),
      openAIError(
        400,
        "the request exceeds the available context size, try increasing it",
        "exceed_context_size_error",
        400,
      ),
    ];
    for (const reply of replies) {
      const provider = await providerFor([reply]);
      const error = await modelErrorOf(provider.complete(request()));
      expect(error.kind).toBe("too_long");
      expect(error.notice).toEqual({
        code: "model.contextTooLong",
        params: {
          endpoint: expect.stringMatching(/^127\.0\.0\.1:/),
          detail: "HTTP 400",
          serverSaid: (reply as { json: { error: { message: string } } }).json.error.message,
        },
      });
      await api?.close();
    }
  });

  it("[W2][M1] the server's own words stay apart from the notice, without the key, an address or a path", async () => {
    const provider = await providerFor([
      openAIError(
        500,
        `upstream http://10.0.0.3:8080/v1 failed at 10.0.0.4:9000 and gpu-7.internal reading /var/lib/models/m.gguf for ${SECRET}, not sk-proj-abc123def456`,
        "server_error",
      ),
    ]);
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.notice.code).toBe("model.serverError");
    expect(error.notice.params.detail).toBe("HTTP 500");
    expect(error.notice.params.serverSaid).toBe(
      "upstream […] failed at […] and […] reading […] for [redacted], not […]",
    );
    expect(error.message).toMatch(/ \(HTTP 500\) The model server said: “upstream \[…\]/);
  });

  it("[W2][M1] a reply that cannot be read says so without the client library's own words", async () => {
    const provider = await providerFor([{ sse: ["data: {not json\n\n"] }]);
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.notice).toEqual({
      code: "model.unreadable",
      params: { endpoint: expect.stringMatching(/^127\.0\.0\.1:/) },
    });
  });

  it("[M1] a 404 names the path it asked for and says to check the base URL", async () => {
    api = await startLoopbackApi([{ status: 404, json: { detail: "Not Found" } }]);
    const provider = createOpenAICompatibleProvider({
      ref: "local/x",
      model: "x",
      baseURL: `${api.origin}/api/`,
      apiKey: SECRET,
      maxRetries: 0,
    });
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("not_found");
    expect(error.notice.code).toBe("model.notFound");
    expect(error.message).toMatch(
      /has no model API at \/api\/chat\/completions\. Check the provider's base URL/,
    );
    expect(error.message).toContain("(HTTP 404)");
  });

  it("[M1][W2] a 429 with retry-after is announced as a notice, waited out, and sent again", async () => {
    const provider = await providerFor(
      [
        {
          ...openAIError(429, "Slow down", "rate_limit_exceeded"),
          headers: { "retry-after-ms": "30" },
        },
        openAIStream([{ content: "Here it is." }]),
      ],
      { maxRetries: 2 },
    );
    const heard: string[] = [];
    const response = await provider.complete(
      request({ onNotice: (notice) => heard.push(`${notice.code} after ${api?.requests.length}`) }),
    );
    expect(response.text).toBe("Here it is.");
    expect(heard).toEqual(["model.retryRateLimited after 1"]);
    expect(api?.requests).toHaveLength(2);
  });

  it("[M1] retries stop at maxRetries, and a server that asks for more than a minute is not waited for", async () => {
    const limited = openAIError(429, "Slow down", "rate_limit_exceeded");
    const provider = await providerFor([{ ...limited, headers: { "retry-after-ms": "1" } }], {
      maxRetries: 2,
    });
    const notices: TurnNotice[] = [];
    const error = await modelErrorOf(
      provider.complete(request({ onNotice: (n) => notices.push(n) })),
    );
    expect(error.kind).toBe("rate_limit");
    expect(notices).toHaveLength(2);
    expect(api?.requests).toHaveLength(3);
    await api?.close();
    const patient = await providerFor([{ ...limited, headers: { "retry-after": "120" } }], {
      maxRetries: 2,
    });
    expect((await modelErrorOf(patient.complete(request()))).kind).toBe("rate_limit");
    expect(api?.requests).toHaveLength(1);
  });

  it("[M1] Stop during a retry's wait ends it at once", async () => {
    const provider = await providerFor(
      [{ ...openAIError(503, "Busy", "server_error"), headers: { "retry-after": "30" } }],
      { maxRetries: 2 },
    );
    const controller = new AbortController();
    const started = Date.now();
    const pending = provider.complete(
      request({ signal: controller.signal, onNotice: () => controller.abort() }),
    );
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(api?.requests).toHaveLength(1);
  });

  it("[M1] rejects at once when the signal has already fired", async () => {
    const provider = await providerFor([openAIStream([{ content: "never" }])]);
    const controller = new AbortController();
    controller.abort();
    await expect(provider.complete(request({ signal: controller.signal }))).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(api?.requests).toHaveLength(0);
  });

  it("[M1] stops the request when the signal aborts", async () => {
    const provider = await providerFor([
      openAIStream([{ content: "partial" }], "stop", { hold: true }),
    ]);
    const controller = new AbortController();
    const deltas: string[] = [];
    const pending = provider.complete(
      request({
        signal: controller.signal,
        onText: (delta) => {
          deltas.push(delta);
          controller.abort();
        },
      }),
    );
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await api?.clientGone;
    expect(deltas).toEqual(["partial"]);
  });
});
