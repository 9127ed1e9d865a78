/** The model-facing conversation, independent of any vendor's wire format. */
export type ModelMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls: ModelToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string; isError: boolean };

export interface ModelToolCall {
  id: string;
  name: string;
  input: unknown;
  /** The arguments could not be read (not JSON, or cut off by the output limit): `input` is {}. */
  inputError?: string;
}

export interface ModelToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the input. */
  inputSchema: Record<string, unknown>;
}

export interface ModelRequest {
  system: string;
  messages: ModelMessage[];
  tools: ModelToolSpec[];
  signal: AbortSignal;
  /** Streamed text as it arrives. */
  onText?: (delta: string) => void;
}

export interface ModelResponse {
  text: string;
  toolCalls: ModelToolCall[];
  stopReason: "end" | "tool_use" | "max_tokens";
}

/** Raised for any failure talking to a model; the turn ends with its message (M1). */
export class ModelError extends Error {
  constructor(
    /** `config`: the model reference or its provider's settings cannot be used (M3). */
    readonly kind: "auth" | "rate_limit" | "network" | "bad_response" | "scenario" | "config",
    message: string,
  ) {
    super(message);
    this.name = "ModelError";
  }
}

export interface ModelProvider {
  /** `provider/model`, e.g. `scripted/demo`. */
  readonly ref: string;
  complete(request: ModelRequest): Promise<ModelResponse>;
}
