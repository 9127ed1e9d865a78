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
  abortError,
  connectionError,
  cutOff,
  endpointName,
  errorForStatus,
  parseToolInput,
  redact,
  stalled,
} from "./providerErrors.ts";
import { STREAM_IDLE_MS, StreamIdleWatch } from "./streamIdle.ts";

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
    maxRetries: options.maxRetries ?? 1,
    timeout: options.timeoutMs ?? 10 * 60_000,
    // Failures reach the transcript as ModelErrors; the SDK's own console output is noise.
    logLevel: "off",
  });
  const endpoint = endpointName(options.baseURL);

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
      const watch = new StreamIdleWatch(options.streamIdleMs ?? STREAM_IDLE_MS, request.signal);
      try {
        const stream = await client.chat.completions.create(body, { signal: watch.signal });
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
          for (const fragment of choice.delta?.tool_calls ?? []) assembly.addToolFragment(fragment);
          if (choice.finish_reason) assembly.finishReason = choice.finish_reason;
        }
        // The SDK ends an aborted stream quietly; the catch says whether it stalled or was stopped.
        watch.signal.throwIfAborted();
        if (chunks === 0) {
          throw new ModelError("bad_response", `${endpoint} answered without a streamed reply.`);
        }
        // A stream closed before its finish reason is a reply cut off, not a finished one.
        if (assembly.finishReason === undefined) throw cutOff(endpoint);
        return assembly.finish();
      } catch (error) {
        if (watch.timedOut) throw stalled(endpoint, watch.idleMs);
        if (request.signal.aborted) throw abortError(request.signal);
        throw toModelError(error, endpoint, options.apiKey);
      } finally {
        watch.stop();
      }
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
          throw new ModelError("bad_response", "The model sent a tool call without a tool name.");
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

function toModelError(error: unknown, endpoint: string, apiKey: string | undefined): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return connectionError(endpoint, error, true);
  }
  if (error instanceof OpenAI.APIConnectionError) return connectionError(endpoint, error, false);
  if (error instanceof OpenAI.APIError) {
    // An error object inside an open stream has no HTTP status; its code tells what it was.
    const status = error.status ?? streamErrorStatus(error.error);
    return errorForStatus(status, serverMessage(error.error), endpoint, apiKey);
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new ModelError(
    "bad_response",
    `${endpoint} sent a response that could not be read: ${redact(reason, apiKey)}`,
  );
}

function streamErrorStatus(body: unknown): number {
  const { code, type } = (typeof body === "object" && body !== null ? body : {}) as {
    code?: unknown;
    type?: unknown;
  };
  const tag = `${String(code ?? "")} ${String(type ?? "")}`;
  if (/rate_limit|quota|429/.test(tag)) return 429;
  if (/api_key|auth|401/.test(tag)) return 401;
  return 400;
}

function serverMessage(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const message = (body as { message?: unknown }).message;
  return typeof message === "string" ? message : undefined;
}
