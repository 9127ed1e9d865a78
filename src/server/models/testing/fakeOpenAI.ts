import type { FakeReply } from "./loopbackApi.ts";

/** One streamed tool-call fragment, as OpenAI-compatible servers send them. */
export interface ToolCallFragment {
  index: number;
  id?: string;
  name?: string;
  arguments?: string;
}

type Delta = { content?: string; toolCalls?: ToolCallFragment[] };

function chunk(delta: Delta, finishReason: string | null): string {
  const wireDelta: Record<string, unknown> = {};
  if (delta.content !== undefined) wireDelta.content = delta.content;
  if (delta.toolCalls !== undefined) {
    wireDelta.tool_calls = delta.toolCalls.map((call) => ({
      index: call.index,
      ...(call.id === undefined ? {} : { id: call.id, type: "function" }),
      function: {
        ...(call.name === undefined ? {} : { name: call.name }),
        ...(call.arguments === undefined ? {} : { arguments: call.arguments }),
      },
    }));
  }
  const body = {
    id: "chatcmpl-fake",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "fake-model",
    choices: [{ index: 0, delta: wireDelta, finish_reason: finishReason }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/**
 * A streamed chat completion: a role chunk, the given deltas, a final chunk with the
 * finish reason, then `[DONE]`. `hold` stops after the first delta and keeps the
 * connection open.
 */
export function openAIStream(
  deltas: readonly Delta[],
  finishReason: "stop" | "tool_calls" | "length" = "stop",
  options: { hold?: boolean } = {},
): FakeReply {
  const events = [
    `data: ${JSON.stringify({
      id: "chatcmpl-fake",
      object: "chat.completion.chunk",
      created: 1_700_000_000,
      model: "fake-model",
      choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
    })}\n\n`,
    ...deltas.map((delta) => chunk(delta, null)),
    chunk({}, finishReason),
    "data: [DONE]\n\n",
  ];
  if (options.hold) return { sse: events.slice(0, 2), hold: true };
  return { sse: events };
}

/** An OpenAI-style error body with an HTTP status. */
export function openAIError(
  status: number,
  message: string,
  type = "invalid_request_error",
  code: string | number | null = null,
): FakeReply {
  return { status, json: { error: { message, type, code, param: null } } };
}
