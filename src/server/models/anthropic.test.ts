import type { TurnNotice } from "../../shared/turnNotices.ts";
import { createAnthropicProvider } from "./anthropic.ts";
import type { ModelRequest } from "./provider.ts";
import { ModelError } from "./provider.ts";
import { anthropicError, anthropicStream, anthropicStreamError } from "./testing/fakeAnthropic.ts";
import {
  closedPortOrigin,
  type FakeReply,
  type LoopbackApi,
  startLoopbackApi,
} from "./testing/loopbackApi.ts";

const SECRET = "sk-ant-test-secret-0123456789";
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
  return createAnthropicProvider({
    ref: "claude/fake-claude",
    model: "fake-claude",
    baseURL: api.origin,
    apiKey: SECRET,
    maxOutputTokens: 1024,
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

describe("Anthropic provider", () => {
  it("[M1] streams text in order through onText and returns it whole", async () => {
    const provider = await providerFor([
      anthropicStream([{ type: "text", parts: ["Hel", "lo, ", "world"] }]),
    ]);
    const deltas: string[] = [];
    const response = await provider.complete(request({ onText: (d) => deltas.push(d) }));
    expect(deltas).toEqual(["Hel", "lo, ", "world"]);
    expect(response).toEqual({ text: "Hello, world", toolCalls: [], stopReason: "end" });
  });

  it("[M1] assembles tool_use blocks from input_json_delta pieces", async () => {
    const provider = await providerFor([
      anthropicStream(
        [
          { type: "text", parts: ["Checking."] },
          {
            type: "tool_use",
            id: "toolu_1",
            name: "ReadFile",
            jsonParts: ['{"pa', 'th": "a.ts"}'],
          },
          { type: "tool_use", id: "toolu_2", name: "TodoRead", jsonParts: [] },
        ],
        "tool_use",
      ),
    ]);
    const response = await provider.complete(request());
    expect(response).toEqual({
      text: "Checking.",
      stopReason: "tool_use",
      toolCalls: [
        { id: "toolu_1", name: "ReadFile", input: { path: "a.ts" } },
        { id: "toolu_2", name: "TodoRead", input: {} },
      ],
    });
  });

  it("[M1] reports a max_tokens stop", async () => {
    const provider = await providerFor([
      anthropicStream([{ type: "text", parts: ["cut"] }], "max_tokens"),
    ]);
    expect((await provider.complete(request())).stopReason).toBe("max_tokens");
  });

  it("[M1] sends system, tools, and tool results grouped in one user message", async () => {
    const provider = await providerFor([anthropicStream([{ type: "text", parts: ["ok"] }])], {
      reasoningLevel: "high",
    });
    await provider.complete(
      request({
        messages: [
          { role: "user", content: "read both" },
          {
            role: "assistant",
            content: "Reading.",
            toolCalls: [
              { id: "toolu_a", name: "ReadFile", input: { path: "a.ts" } },
              { id: "toolu_b", name: "ReadFile", input: { path: "../b" } },
            ],
          },
          {
            role: "tool",
            toolCallId: "toolu_a",
            name: "ReadFile",
            content: "x = 1",
            isError: false,
          },
          {
            role: "tool",
            toolCallId: "toolu_b",
            name: "ReadFile",
            content: "outside",
            isError: true,
          },
          { role: "user", content: "also look at c" },
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
    expect(sent?.path).toBe("/v1/messages");
    const credential = sent?.headers["x-api-key"] ?? sent?.headers.authorization;
    expect(credential).toContain(SECRET);
    expect(sent?.body).toEqual({
      model: "fake-claude",
      max_tokens: 1024,
      stream: true,
      system: "You are terse.",
      output_config: { effort: "high" },
      messages: [
        { role: "user", content: "read both" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Reading." },
            { type: "tool_use", id: "toolu_a", name: "ReadFile", input: { path: "a.ts" } },
            { type: "tool_use", id: "toolu_b", name: "ReadFile", input: { path: "../b" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_a", content: "x = 1" },
            { type: "tool_result", tool_use_id: "toolu_b", content: "outside", is_error: true },
            { type: "text", text: "also look at c" },
          ],
        },
      ],
      tools: [
        {
          name: "ReadFile",
          description: "Reads a file.",
          input_schema: { type: "object", properties: { path: { type: "string" } } },
        },
      ],
    });
  });

  it("[M1] reports a refused key as an auth error without the key", async () => {
    const provider = await providerFor([
      anthropicError(401, "authentication_error", `invalid x-api-key ${SECRET}`),
    ]);
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("auth");
    expect(error.message).not.toContain(SECRET);
  });

  it("[M1] reports HTTP 429 and a rate-limit stream event as rate limits", async () => {
    const provider = await providerFor([anthropicError(429, "rate_limit_error", "Too many")]);
    expect((await modelErrorOf(provider.complete(request()))).kind).toBe("rate_limit");
    await api?.close();
    const streamed = await providerFor([anthropicStreamError("rate_limit_error", "Too many")]);
    expect((await modelErrorOf(streamed.complete(request()))).kind).toBe("rate_limit");
  });

  it("[M1] reports HTTP 529 and an overloaded stream event as overloaded, not as the network", async () => {
    const provider = await providerFor([anthropicError(529, "overloaded_error", "Overloaded")]);
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("overloaded");
    expect(error.notice).toEqual({
      code: "model.overloaded",
      params: {
        endpoint: expect.stringMatching(/^127\.0\.0\.1:/),
        detail: "HTTP 529",
        serverSaid: "Overloaded",
      },
    });
    await api?.close();
    const streamed = await providerFor([anthropicStreamError("overloaded_error", "Overloaded")]);
    const inStream = await modelErrorOf(streamed.complete(request()));
    expect(inStream.kind).toBe("overloaded");
    expect(inStream.notice.params).toMatchObject({
      detail: "overloaded_error",
      serverSaid: "Overloaded",
    });
    expect(inStream.message).not.toContain("HTTP");
  });

  it("[W2][M1] a prompt too long for the context (400) or a request too large (413) is its own notice", async () => {
    const provider = await providerFor([
      anthropicError(
        400,
        "invalid_request_error",
        "prompt is too long: 210000 tokens > 200000 maximum",
      ),
    ]);
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("too_long");
    expect(error.notice).toEqual({
      code: "model.contextTooLong",
      params: {
        endpoint: expect.stringMatching(/^127\.0\.0\.1:/),
        detail: "HTTP 400",
        serverSaid: "prompt is too long: 210000 tokens > 200000 maximum",
      },
    });
    await api?.close();
    const large = await providerFor([
      anthropicError(
        413,
        "request_too_large",
        "Request exceeds the maximum allowed number of bytes.",
      ),
    ]);
    expect((await modelErrorOf(large.complete(request()))).notice.code).toBe(
      "model.contextTooLong",
    );
    await api?.close();
    const other = await providerFor([
      anthropicError(400, "invalid_request_error", "messages: roles must alternate"),
    ]);
    expect((await modelErrorOf(other.complete(request()))).notice.code).toBe("model.rejected");
  });

  it("[M1] an api_error event inside the stream is the server's own failure, with no made-up status", async () => {
    const provider = await providerFor([
      anthropicStreamError("api_error", "Internal server error"),
    ]);
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("server");
    expect(error.notice.code).toBe("model.serverError");
    expect(error.message).not.toContain("HTTP");
  });

  it("[M1][W2] a 529 is announced as a notice and sent again after the wait the server asks for", async () => {
    const provider = await providerFor(
      [
        {
          ...anthropicError(529, "overloaded_error", "Overloaded"),
          headers: { "retry-after": "0" },
        },
        anthropicStream([{ type: "text", parts: ["Back."] }]),
      ],
      { maxRetries: 1 },
    );
    const notices: TurnNotice[] = [];
    const response = await provider.complete(request({ onNotice: (n) => notices.push(n) }));
    expect(response.text).toBe("Back.");
    expect(notices).toEqual([
      {
        code: "model.retryOverloaded",
        params: {
          endpoint: expect.stringMatching(/^127\.0\.0\.1:/),
          seconds: "1",
          detail: "HTTP 529",
          serverSaid: "Overloaded",
        },
      },
    ]);
    expect(api?.requests).toHaveLength(2);
  });

  it("[M1] a connection that breaks mid-reply is a lost connection", async () => {
    const reply = anthropicStream([{ type: "text", parts: ["partial ", "answer"] }]);
    const provider = await providerFor([
      { sse: "sse" in reply ? reply.sse.slice(0, 4) : [], reset: true },
    ]);
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("network");
    expect(error.notice.code).toBe("model.connectionLost");
  });

  it("[M1] reports a refused connection as a network error", async () => {
    const provider = createAnthropicProvider({
      ref: "claude/x",
      model: "x",
      baseURL: await closedPortOrigin(),
      apiKey: SECRET,
      maxRetries: 0,
    });
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("network");
    expect(error.message).not.toContain(SECRET);
  });

  it("[M1][R2] a tool call with malformed JSON input comes back as a call the model is told to repeat", async () => {
    const provider = await providerFor([
      anthropicStream(
        [{ type: "tool_use", id: "toolu_1", name: "ReadFile", jsonParts: ['{"path": '] }],
        "tool_use",
      ),
      anthropicStream(
        [{ type: "tool_use", id: "toolu_2", name: "Write", jsonParts: ['{"content": "lo'] }],
        "max_tokens",
      ),
    ]);
    const [broken] = (await provider.complete(request())).toolCalls;
    expect(broken).toMatchObject({ id: "toolu_1", name: "ReadFile", input: {} });
    expect(broken?.inputError).toMatch(/ReadFile was not run: .*not valid JSON/);
    const [cut] = (await provider.complete(request())).toolCalls;
    expect(cut?.inputError).toMatch(/cut off where the reply reached its output limit/);
  });

  it("[M1][R3] a stream that closes before message_stop is a reply cut off, not an answer", async () => {
    const reply = anthropicStream([{ type: "text", parts: ["partial ", "answer"] }]);
    const whole = "sse" in reply ? reply.sse : [];
    const cut = whole.filter((event: string) => !/message_delta|message_stop/.test(event));
    expect(cut.length).toBeLessThan(whole.length);
    const provider = await providerFor([{ sse: cut }]);
    const error = await modelErrorOf(provider.complete(request()));
    expect(error.kind).toBe("bad_response");
    expect(error.message).toMatch(/before the reply was finished/);
  });

  it("[M1][R3] a reply that goes quiet midway is given up after the idle time, saying so", async () => {
    const provider = await providerFor(
      [
        anthropicStream([{ type: "text", parts: ["partial", "never"] }], "end_turn", {
          hold: true,
        }),
      ],
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

  it("[M1] stops the request when the signal aborts", async () => {
    const provider = await providerFor([
      anthropicStream([{ type: "text", parts: ["partial", "never"] }], "end_turn", { hold: true }),
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
