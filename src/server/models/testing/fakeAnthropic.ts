import type { FakeReply } from "./loopbackApi.ts";

export type FakeBlock =
  | { type: "text"; parts: readonly string[] }
  | { type: "tool_use"; id: string; name: string; jsonParts: readonly string[] };

function event(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

const usage = {
  input_tokens: 12,
  output_tokens: 0,
  cache_creation_input_tokens: null,
  cache_read_input_tokens: null,
  output_tokens_details: null,
  server_tool_use: null,
};

/**
 * A streamed Messages response: `message_start`, each block as start / deltas / stop,
 * `message_delta` with the stop reason, `message_stop`. `hold` stops after the first
 * delta and keeps the connection open.
 */
export function anthropicStream(
  blocks: readonly FakeBlock[],
  stopReason: "end_turn" | "tool_use" | "max_tokens" = "end_turn",
  options: { hold?: boolean } = {},
): FakeReply {
  const events: string[] = [
    event("message_start", {
      type: "message_start",
      message: {
        id: "msg_fake",
        type: "message",
        role: "assistant",
        model: "fake-claude",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    }),
    event("ping", { type: "ping" }),
  ];
  blocks.forEach((block, index) => {
    if (block.type === "text") {
      events.push(
        event("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "text", text: "", citations: null },
        }),
      );
      for (const text of block.parts) {
        events.push(
          event("content_block_delta", {
            type: "content_block_delta",
            index,
            delta: { type: "text_delta", text },
          }),
        );
      }
    } else {
      events.push(
        event("content_block_start", {
          type: "content_block_start",
          index,
          content_block: {
            type: "tool_use",
            id: block.id,
            name: block.name,
            input: {},
            caller: { type: "direct" },
          },
        }),
      );
      for (const partial_json of block.jsonParts) {
        events.push(
          event("content_block_delta", {
            type: "content_block_delta",
            index,
            delta: { type: "input_json_delta", partial_json },
          }),
        );
      }
    }
    events.push(event("content_block_stop", { type: "content_block_stop", index }));
  });
  events.push(
    event("message_delta", {
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { ...usage, output_tokens: 7 },
    }),
    event("message_stop", { type: "message_stop" }),
  );
  if (options.hold) return { sse: events.slice(0, 4), hold: true };
  return { sse: events };
}

/** An Anthropic-style error body with an HTTP status. */
export function anthropicError(status: number, type: string, message: string): FakeReply {
  return { status, json: { type: "error", error: { type, message } } };
}

/** An `error` event in the middle of a stream (e.g. overloaded). */
export function anthropicStreamError(type: string, message: string): FakeReply {
  return { sse: [event("error", { type: "error", error: { type, message } })] };
}
