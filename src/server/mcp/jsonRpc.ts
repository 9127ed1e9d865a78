// JSON-RPC 2.0 as MCP uses it: requests carry an id, notifications do not.

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: unknown;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: unknown;
}

export type JsonRpcResponse =
  | { jsonrpc: "2.0"; id: JsonRpcId; result: unknown }
  | { jsonrpc: "2.0"; id: JsonRpcId | null; error: { code: number; message: string } };

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

export type IncomingMessage =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response" }
  | { kind: "invalid"; id: JsonRpcId | null; reason: string };

function isId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** Sorts one decoded message; anything that is not JSON-RPC 2.0 is `invalid` with a reason. */
export function classify(value: unknown): IncomingMessage {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { kind: "invalid", id: null, reason: "a message must be a JSON object" };
  }
  const record = value as Record<string, unknown>;
  const id = isId(record.id) ? record.id : null;
  if (record.jsonrpc !== "2.0") return { kind: "invalid", id, reason: 'jsonrpc must be "2.0"' };
  if (record.method === undefined && ("result" in record || "error" in record)) {
    return { kind: "response" };
  }
  if (typeof record.method !== "string" || record.method === "") {
    return { kind: "invalid", id, reason: "method must be a non-empty string" };
  }
  if (record.id === undefined) {
    return {
      kind: "notification",
      message: { jsonrpc: "2.0", method: record.method, params: record.params },
    };
  }
  if (id === null) return { kind: "invalid", id: null, reason: "id must be a string or a number" };
  return {
    kind: "request",
    message: { jsonrpc: "2.0", id, method: record.method, params: record.params },
  };
}

export function resultOf(id: JsonRpcId, result: unknown): JsonRpcResponse {
  return { jsonrpc: "2.0", id, result };
}

export function errorOf(id: JsonRpcId | null, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: { code, message } };
}
