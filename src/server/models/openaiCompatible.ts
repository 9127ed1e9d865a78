import OpenAI from "openai";
import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import type { ReasoningEffort } from "openai/resources/shared";
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
  toolCallWithoutName,
  unexpectedError,
} from "./providerErrors.ts";
import { streamedCall } from "./streamedCall.ts";

export interface OpenAICompatibleOptions {
  /** `provider/model` as the session shows it. */
  readonly ref: string;
  /** The model id sent on the wire. */
  readonly model: string;
  /** e.g. `https://api.openai.com/v1` or a local `http://127.0.0.1:8080/v1`. */
  readonly baseURL: string;
  /** Self-hosted servers often need none. */
  readonly apiKey: string | undefined;
  /** Sent as `reasoning_effort` when set. */
  readonly reasoningLevel?: string | undefined;
  /** Retries of a failed request, each announced by a notice (withRetries). */
  readonly maxRetries?: number;
  readonly timeoutMs?: number;
  /** Quiet time after which a started reply is given up (StreamIdleWatch). */
  readonly streamIdleMs?: number;
}

/** Placeholder for servers that ignore the key; the SDK insists on one. */
const NO_KEY = "no-key";

/** M1: any server speaking OpenAI chat completions, streamed. */
export function createOpenAICompatibleProvider(options: OpenAICompatibleOptions): ModelProvider {
  const client = new OpenAI({
    apiKey: options.apiKey ?? NO_KEY,
    baseURL: options.baseURL,
    organization: null,
    project: null,
    // withRetries does it, so the person hears of each wait.
    maxRetries: 0,
    timeout: options.timeoutMs ?? 10 * 60_000,
    // Failures reach the transcript as ModelErrors; the SDK's own console output is noise.
    logLevel: "off",
  });
  const endpoint = modelEndpoint(options.baseURL, "/chat/completions", options.apiKey);

  return {
    ref: options.ref,
    async complete(request: ModelRequest): Promise<ModelResponse> {
      const body: ChatCompletionCreateParamsStreaming = {
        model: options.model,
        stream: true,
        messages: toOpenAIMessages(request.system, request.messages),
        ...(request.tools.length === 0 ? {} : { tools: request.tools.map(toOpenAITool) }),
        ...(options.reasoningLevel === undefined
          ? {}
          : { reasoning_effort: options.reasoningLevel as ReasoningEffort }),
      };
      return streamedCall(request, {
        endpoint,
        maxRetries: options.maxRetries,
        streamIdleMs: options.streamIdleMs,
        open: (signal) => client.chat.completions.create(body, { signal }),
        read: async (stream, watch) => {
          const assembly = new StreamAssembly();
          let chunks = 0;
          for await (const chunk of stream) {
            watch.beat();
            chunks += 1;
            const choice = chunk.choices?.[0];
            if (choice === undefined) continue;
            const text = choice.delta?.content;
            if (typeof text === "string" && text !== "") {
              assembly.text += text;
              request.onText?.(text);
            }
            for (const fragment of choice.delta?.tool_calls ?? []) {
              assembly.addToolFragment(fragment);
            }
            if (choice.finish_reason) assembly.finishReason = choice.finish_reason;
          }
          if (chunks === 0) throw noStream(endpoint);
          // A stream closed before its finish reason is a reply cut off, not a finished one.
          if (assembly.finishReason === undefined) throw cutOff(endpoint);
          return assembly.finish();
        },
        toModelError: (error, responded) => toModelError(error, endpoint, responded),
      });
    },
  };
}

interface PendingToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Streamed tool calls arrive as fragments keyed by index: id and name once, arguments in pieces. */
class StreamAssembly {
  text = "";
  finishReason: string | undefined;
  private readonly calls = new Map<number, PendingToolCall>();

  addToolFragment(fragment: {
    index: number;
    id?: string | undefined;
    function?: { name?: string | undefined; arguments?: string | undefined } | undefined;
  }): void {
    let call = this.calls.get(fragment.index);
    if (call === undefined) {
      call = { id: "", name: "", arguments: "" };
      this.calls.set(fragment.index, call);
    }
    if (fragment.id) call.id = fragment.id;
    if (fragment.function?.name) call.name = fragment.function.name;
    if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
  }

  finish(): ModelResponse {
    const toolCalls: ModelToolCall[] = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => {
        if (call.name === "") {
          throw toolCallWithoutName();
        }
        return {
          id: call.id || `call_${index}`,
          name: call.name,
          ...parseToolInput(call.arguments, call.name, this.finishReason === "length"),
        };
      });
    const stopReason =
      toolCalls.length > 0 ? "tool_use" : this.finishReason === "length" ? "max_tokens" : "end";
    return { text: this.text, toolCalls, stopReason };
  }
}

export function toOpenAIMessages(
  system: string,
  messages: readonly ModelMessage[],
): ChatCompletionMessageParam[] {
  const wire: ChatCompletionMessageParam[] = [];
  if (system !== "") wire.push({ role: "system", content: system });
  for (const message of messages) {
    switch (message.role) {
      case "user":
        wire.push({ role: "user", content: message.content });
        break;
      case "assistant":
        if (message.toolCalls.length === 0) {
          wire.push({ role: "assistant", content: message.content });
        } else {
          wire.push({
            role: "assistant",
            content: message.content === "" ? null : message.content,
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              type: "function",
              function: { name: call.name, arguments: JSON.stringify(call.input ?? {}) },
            })),
          });
        }
        break;
      case "tool":
        // The format has no error flag, so a failed tool says so in its text.
        wire.push({
          role: "tool",
          tool_call_id: message.toolCallId,
          content: message.isError ? `Error: ${message.content}` : message.content,
        });
        break;
    }
  }
  return wire;
}

export function toOpenAITool(tool: ModelToolSpec): ChatCompletionTool {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  };
}

function toModelError(error: unknown, endpoint: ModelEndpoint, responded: boolean): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return connectionError(endpoint, error, { timedOut: true, responded });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return connectionError(endpoint, error, { timedOut: false, responded });
  }
  if (error instanceof OpenAI.APIError) {
    const message = serverMessage(error.error);
    const tag = streamErrorTag(error.error);
    if (error.status !== undefined) {
      return errorForStatus(error.status, message, error.headers, endpoint, tag);
    }
    // An error object inside an open stream has no HTTP status; its code tells what it was.
    return errorForStreamEvent(tag, message, endpoint);
  }
  return unexpectedError(endpoint, error, responded);
}

function streamErrorTag(body: unknown): string {
  const { code, type } = (typeof body === "object" && body !== null ? body : {}) as {
    code?: unknown;
    type?: unknown;
  };
  return [code, type].filter((part) => typeof part === "string" && part !== "").join(" ");
}

function serverMessage(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const message = (body as { message?: unknown }).message;
  return typeof message === "string" ? message : undefined;
}
