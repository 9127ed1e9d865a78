import { englishTurnNotice, type TurnNotice } from "../../shared/turnNotices.ts";

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
  /** Something the person should know while the call goes on, e.g. a retry after a rate limit. */
  onNotice?: (notice: TurnNotice) => void;
}

export interface ModelResponse {
  text: string;
  toolCalls: ModelToolCall[];
  stopReason: "end" | "tool_use" | "max_tokens";
}

export type ModelErrorKind =
  | "auth"
  | "rate_limit"
  | "overloaded"
  | "server"
  | "not_found"
  /** The request is larger than the model's context window. */
  | "too_long"
  | "network"
  | "bad_response"
  | "scenario"
  /** The model reference or its provider's settings cannot be used (M3). */
  | "config";

/** Raised for any failure talking to a model; the turn ends with its notice (M1, W2). */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    /** What the transcript says, by code, so the page words it in its own language. */
    readonly notice: TurnNotice,
    /** The request may be sent again after this wait (ms), or after a backoff when undefined. */
    readonly retry?: { afterMs: number | undefined },
    /** For whoever runs the server (start-up, log), when it needs more than the notice says. */
    operatorMessage?: string,
  ) {
    super(operatorMessage ?? englishTurnNotice(notice));
    this.name = "ModelError";
  }
}

export interface ModelProvider {
  /** `provider/model`, e.g. `scripted/demo`. */
  readonly ref: string;
  complete(request: ModelRequest): Promise<ModelResponse>;
}
