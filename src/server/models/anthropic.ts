import Anthropic from "@anthropic-ai/sdk";
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  OutputConfig,
  Tool,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type {
  ModelMessage,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ModelToolCall,
  ModelToolSpec,
} from "./provider.ts";
import { ModelError } from "./provider.ts";
import {
  connectionError,
  cutOff,
  errorForStatus,
  errorForStreamEvent,
  type ModelEndpoint,
  modelEndpoint,
  noStream,
  parseToolInput,
  unexpectedError,
} from "./providerErrors.ts";
import { streamedCall } from "./streamedCall.ts";

export interface AnthropicOptions {
  readonly ref: string;
  readonly model: string;
  readonly baseURL: string;
  readonly apiKey: string | undefined;
  /** Sent as `output_config.effort` when set. */
  readonly reasoningLevel?: string | undefined;
  readonly maxOutputTokens?: number;
  /** Retries of a failed request, each announced by a notice (withRetries). */
  readonly maxRetries?: number;
  readonly timeoutMs?: number;
  /** Quiet time after which a started reply is given up (StreamIdleWatch). */
  readonly streamIdleMs?: number;
}

const DEFAULT_MAX_OUTPUT_TOKENS = 16_384;
const NO_KEY = "no-key";

type PendingBlock =
  | { type: "text" }
  | { type: "tool_use"; id: string; name: string; json: string }
  | { type: "other" };

/** M1: Anthropic Messages, streamed. */
export function createAnthropicProvider(options: AnthropicOptions): ModelProvider {
  const client = new Anthropic({
    apiKey: options.apiKey ?? NO_KEY,
    authToken: null,
    baseURL: options.baseURL,
    // withRetries does it, so the person hears of each wait.
    maxRetries: 0,
    timeout: options.timeoutMs ?? 10 * 60_000,
    // Failures reach the transcript as ModelErrors; the SDK's own console output is noise.
    logLevel: "off",
  });
  const endpoint = modelEndpoint(options.baseURL, "/v1/messages", options.apiKey);

  return {
    ref: options.ref,
    async complete(request: ModelRequest): Promise<ModelResponse> {
      const body: MessageCreateParamsStreaming = {
        model: options.model,
        max_tokens: options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
        stream: true,
        messages: toAnthropicMessages(request.messages),
        ...(request.system === "" ? {} : { system: request.system }),
        ...(request.tools.length === 0 ? {} : { tools: request.tools.map(toAnthropicTool) }),
        ...(options.reasoningLevel === undefined
          ? {}
          : { output_config: { effort: options.reasoningLevel as OutputConfig["effort"] } }),
      };
      return streamedCall(request, {
        endpoint,
        maxRetries: options.maxRetries,
        streamIdleMs: options.streamIdleMs,
        open: (signal) => client.messages.create(body, { signal }),
        read: async (stream, watch) => {
          const blocks = new Map<number, PendingBlock>();
          let text = "";
          let stopReason: string | null = null;
          let started = false;
          let stopped = false;
          for await (const event of stream) {
            watch.beat();
            switch (event.type) {
              case "message_start":
                started = true;
                break;
              case "content_block_start": {
                const block = event.content_block;
                if (block.type === "text") {
                  blocks.set(event.index, { type: "text" });
                  if (block.text !== "") {
                    text += block.text;
                    request.onText?.(block.text);
                  }
                } else if (block.type === "tool_use") {
                  blocks.set(event.index, {
                    type: "tool_use",
                    id: block.id,
                    name: block.name,
                    json: "",
                  });
                } else {
                  blocks.set(event.index, { type: "other" });
                }
                break;
              }
              case "content_block_delta": {
                const delta = event.delta;
                const block = blocks.get(event.index);
                if (delta.type === "text_delta") {
                  text += delta.text;
                  request.onText?.(delta.text);
                } else if (delta.type === "input_json_delta" && block?.type === "tool_use") {
                  block.json += delta.partial_json;
                }
                break;
              }
              case "message_delta":
                stopReason = event.delta.stop_reason ?? stopReason;
                break;
              case "message_stop":
                stopped = true;
                break;
              default:
                break;
            }
          }
          if (!started) throw noStream(endpoint);
          // A stream closed before message_stop is a reply cut off, not a finished one.
          if (!stopped) throw cutOff(endpoint);
          const toolCalls: ModelToolCall[] = [...blocks.entries()]
            .sort(([a], [b]) => a - b)
            .flatMap(([, block]) =>
              block.type === "tool_use"
                ? [
                    {
                      id: block.id,
                      name: block.name,
                      ...parseToolInput(block.json, block.name, stopReason === "max_tokens"),
                    },
                  ]
                : [],
            );
          return {
            text,
            toolCalls,
            stopReason:
              toolCalls.length > 0
                ? "tool_use"
                : stopReason === "max_tokens"
                  ? "max_tokens"
                  : "end",
          };
        },
        toModelError: (error, responded) => toModelError(error, endpoint, responded),
      });
    },
  };
}

/**
 * Tool results travel as `tool_result` blocks of a user message: consecutive results
 * share one message, and a user text right after them joins it.
 */
export function toAnthropicMessages(messages: readonly ModelMessage[]): MessageParam[] {
  const wire: MessageParam[] = [];
  let openUserBlocks: ContentBlockParam[] | undefined;
  for (const message of messages) {
    if (message.role === "tool") {
      const result: ToolResultBlockParam = {
        type: "tool_result",
        tool_use_id: message.toolCallId,
        content: message.content,
        ...(message.isError ? { is_error: true } : {}),
      };
      if (openUserBlocks === undefined) {
        openUserBlocks = [result];
        wire.push({ role: "user", content: openUserBlocks });
      } else {
        openUserBlocks.push(result);
      }
      continue;
    }
    if (message.role === "user") {
      if (openUserBlocks !== undefined) {
        openUserBlocks.push({ type: "text", text: message.content });
      } else {
        wire.push({ role: "user", content: message.content });
      }
      openUserBlocks = undefined;
      continue;
    }
    openUserBlocks = undefined;
    const content: ContentBlockParam[] = [];
    if (message.content !== "") content.push({ type: "text", text: message.content });
    for (const call of message.toolCalls) {
      content.push({ type: "tool_use", id: call.id, name: call.name, input: call.input ?? {} });
    }
    // The API refuses empty assistant turns; an empty one carries nothing anyway.
    if (content.length > 0) wire.push({ role: "assistant", content });
  }
  return wire;
}

export function toAnthropicTool(tool: ModelToolSpec): Tool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema as Tool.InputSchema,
  };
}

function toModelError(error: unknown, endpoint: ModelEndpoint, responded: boolean): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof Anthropic.APIConnectionTimeoutError) {
    return connectionError(endpoint, error, { timedOut: true, responded });
  }
  if (error instanceof Anthropic.APIConnectionError) {
    return connectionError(endpoint, error, { timedOut: false, responded });
  }
  if (error instanceof Anthropic.APIError) {
    const message = error.apiMessage ?? undefined;
    if (error.status !== undefined) {
      return errorForStatus(error.status, message, error.headers, endpoint, error.type ?? "");
    }
    // An `error` event inside an open stream has a type (e.g. overloaded_error) but no status.
    return errorForStreamEvent(error.type ?? "", message, endpoint);
  }
  return unexpectedError(endpoint, error, responded);
}
