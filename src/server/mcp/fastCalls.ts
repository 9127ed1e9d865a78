import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { McpToolResult } from "./mcpTools.ts";
import { SpreadBeat } from "./spreadBeat.ts";
import type { SessionEvents, SqliteEventStore } from "./sqliteEventStore.ts";
import type { CallFollower, WaitingCall } from "./waitingCalls.ts";

/** The MCP session a fast call belongs to; its streams are stored under the session's prefix. */
export interface StreamOwner {
  readonly events: SessionEvents;
}

/** The SDK writes a priming event (an id to resume from) for clients from this revision on. */
const PRIMING_FROM = "2025-11-25";
const KEEP_ALIVE = ": keepalive\n\n";

/** What progress and a working task say while a call waits on the person. */
export const WAITING_FOR_USER = "waiting for the user in plangate";

/** A tools/call of one of our own tools, as the fast path takes it from the body. */
export interface FastRequest {
  id: RequestId;
  name: string;
  args: Record<string, unknown>;
  progressToken: string | number | undefined;
  /** MCP tasks: answered at once with a task the agent polls, instead of held open. */
  task: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The body as a fast call, or undefined when it is anything else (the SDK serves those, and
 * words every error as it always has): one JSON-RPC request for `tools/call` of a tool in
 * `names`, with object arguments, made as a task or not.
 */
export function fastRequestOf(body: unknown, names: ReadonlySet<string>): FastRequest | undefined {
  if (!isRecord(body) || body.jsonrpc !== "2.0" || body.method !== "tools/call") return undefined;
  const id = body.id;
  if (typeof id !== "string" && !(typeof id === "number" && Number.isInteger(id))) return undefined;
  const params = body.params;
  if (!isRecord(params) || typeof params.name !== "string" || !names.has(params.name)) {
    return undefined;
  }
  if (params.task !== undefined && !isRecord(params.task)) return undefined;
  const args = params.arguments ?? {};
  if (!isRecord(args)) return undefined;
  const meta = params._meta;
  if (meta !== undefined && !isRecord(meta)) return undefined;
  const token = meta?.progressToken;
  if (token !== undefined && typeof token !== "string" && typeof token !== "number") {
    return undefined;
  }
  return { id, name: params.name, args, progressToken: token, task: params.task !== undefined };
}

/** A tasks/get (MCP tasks): its request id and the task it asks after. */
export function taskPollOf(body: unknown): { id: RequestId; taskId: string } | undefined {
  if (!isRecord(body) || body.jsonrpc !== "2.0" || body.method !== "tasks/get") return undefined;
  const id = body.id;
  if (typeof id !== "string" && !(typeof id === "number" && Number.isInteger(id))) return undefined;
  const taskId = isRecord(body.params) ? body.params.taskId : undefined;
  return typeof taskId === "string" ? { id, taskId } : undefined;
}

/** A reply as one JSON body, which MCP allows for any request (the SDK's errors are JSON too). */
export function respondJson(
  response: ServerResponse,
  sessionId: string,
  message: JSONRPCMessage,
): void {
  response
    .writeHead(200, { "content-type": "application/json", "mcp-session-id": sessionId })
    .end(JSON.stringify(message));
}

/** The id of the call a `notifications/cancelled` withdraws, if the body is one. */
export function cancelledIdOf(body: unknown): RequestId | undefined {
  if (!isRecord(body) || body.method !== "notifications/cancelled" || "id" in body) {
    return undefined;
  }
  const id = isRecord(body.params) ? body.params.requestId : undefined;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

/**
 * The SDK's revisions, from the SDK the bridge loaded: importing its types.js here would build
 * all of its schemas at every start, before the first page.
 */
export interface ProtocolVersions {
  readonly SUPPORTED_PROTOCOL_VERSIONS: readonly string[];
  readonly DEFAULT_NEGOTIATED_PROTOCOL_VERSION: string;
}

/**
 * B2, as the SDK's transport checks a POST: both media types accepted, a JSON body, a
 * supported MCP-Protocol-Version. The revision the client speaks, or undefined when a check
 * fails (the SDK then answers with its own error).
 */
export function fastPostVersionOf(
  request: IncomingMessage,
  versions: ProtocolVersions,
): string | undefined {
  const accept = headerOf(request, "accept");
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) {
    return undefined;
  }
  if (!isJsonContentType(headerOf(request, "content-type"))) return undefined;
  return versionOf(request, versions);
}

function versionOf(request: IncomingMessage, versions: ProtocolVersions): string | undefined {
  const version = headerOf(request, "mcp-protocol-version");
  if (version === undefined) return versions.DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  return versions.SUPPORTED_PROTOCOL_VERSIONS.includes(version) ? version : undefined;
}

/** The SDK's SSE response headers, so a fast reply is the same on the wire. */
function sseHeaders(sessionId: string): Record<string, string> {
  return {
    "content-type": "text/event-stream",
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive",
    "x-accel-buffering": "no",
    "mcp-session-id": sessionId,
  };
}

/**
 * The stream's head, as the SDK writes it. Node keeps a response's head as a rope of ≈30
 * concatenated pieces for as long as the response is open (≈0.9 KB a waiting call, issue 15);
 * the same bytes as one flat string take a third. Header values are latin1 by Node's own check,
 * so the round trip is exact.
 */
function writeSseHead(response: ServerResponse, sessionId: string): void {
  response.writeHead(200, sseHeaders(sessionId));
  const held = response as unknown as { _header?: unknown };
  if (typeof held._header === "string") {
    held._header = Buffer.from(held._header, "latin1").toString("latin1");
  }
}

function eventText(eventId: string, message: JSONRPCMessage): string {
  return `event: message\nid: ${eventId}\ndata: ${JSON.stringify(message)}\n\n`;
}

/**
 * One tools/call waiting as data (issue 15): its id, its SSE stream's id and the response to
 * write to (none while the agent is away, B3), instead of a chain of suspended async frames
 * through the SDK. Every message is stored before it is written, as the SDK's transport does.
 */
export class FastCall<O extends StreamOwner = StreamOwner> implements CallFollower {
  response: ServerResponse | undefined;
  call: WaitingCall | undefined;
  finished = false;
  private beats = 0;

  constructor(
    private readonly streams: FastStreams<O>,
    readonly owner: O,
    readonly streamId: string,
    readonly requestId: RequestId,
    readonly tool: string,
    private readonly progressToken: string | number | undefined,
  ) {}

  callEnded(result: McpToolResult | undefined, error: unknown): void {
    this.streams.ended(this, result, error);
  }

  get listening(): boolean {
    return !this.finished && this.response !== undefined;
  }

  get wantsProgress(): boolean {
    return this.progressToken !== undefined;
  }

  send(message: JSONRPCMessage): void {
    const eventId = this.streams.events.append(this.streamId, message);
    this.write(eventText(eventId, message));
  }

  write(text: string): void {
    const response = this.response;
    if (response && !response.writableEnded && !response.destroyed) response.write(text);
  }

  /** B4: progress for agents that asked for it, so their call timeouts start over. */
  beat(): void {
    this.beats += 1;
    this.send({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: {
        progressToken: this.progressToken as string | number,
        progress: this.beats,
        message: WAITING_FOR_USER,
      },
    });
  }

  /** The call's response (result or error), then the stream ends, as the SDK ends it. */
  respond(message: JSONRPCMessage): void {
    this.send(message);
    this.end();
  }

  /** Ends the stream with nothing more (a cancelled call gets no response). */
  end(): void {
    this.finished = true;
    this.streams.forget(this);
    const response = this.response;
    this.response = undefined;
    if (response && !response.writableEnded) response.end();
  }
}

/**
 * The SSE streams of fast calls: opening them as the SDK does (headers, priming event),
 * resuming them with Last-Event-ID (B3), and their keep-alives, spread over the period (B4).
 */
export class FastStreams<O extends StreamOwner = StreamOwner> {
  private readonly live = new Map<string, FastCall<O>>();
  private readonly keepAlive: SpreadBeat<FastCall<O>>;
  /** The fast call each open response carries. */
  private readonly attached = new Map<ServerResponse, FastCall<O>>();
  /**
   * One "close" listener for every response, not a closure per call (issue 15); `on`, not
   * `once`: "close" comes once, and a once-wrapper is three more objects per call.
   */
  private readonly detach: (this: ServerResponse) => void;

  /** `ended`: a fast call's waiting call ended (its result, or why it failed). */
  constructor(
    readonly events: SqliteEventStore,
    keepAliveMs: number,
    readonly ended: (fast: FastCall<O>, result: McpToolResult | undefined, error: unknown) => void,
  ) {
    this.keepAlive = new SpreadBeat(keepAliveMs, (fast) => fast.write(KEEP_ALIVE));
    const attached = this.attached;
    this.detach = function (this: ServerResponse) {
      const fast = attached.get(this);
      attached.delete(this);
      // B3: a dropped connection is not a cancel; the call waits for the agent to resume.
      if (fast?.response === this) fast.response = undefined;
    };
  }

  private attach(fast: FastCall<O>, response: ServerResponse): void {
    // Gone already (the agent left while its request was checked): no "close" is coming.
    if (response.destroyed) return;
    fast.response = response;
    this.attached.set(response, fast);
    response.on("close", this.detach);
  }

  open(
    response: ServerResponse,
    owner: O,
    sessionId: string,
    version: string,
    request: FastRequest,
  ): FastCall<O> {
    const streamId = owner.events.streamIdFor(randomUUID());
    const fast = new FastCall(
      this,
      owner,
      streamId,
      request.id,
      request.name,
      request.progressToken,
    );
    this.live.set(streamId, fast);
    writeSseHead(response, sessionId);
    this.attach(fast, response);
    if (version >= PRIMING_FROM) {
      const eventId = this.events.append(streamId, {});
      response.write(`id: ${eventId}\ndata: \n\n`);
    } else {
      response.flushHeaders();
    }
    this.keepAlive.add(fast);
    return fast;
  }

  /**
   * B3: a GET with Last-Event-ID for a fast call still waiting gets what it missed, then the
   * call's result when it comes. False when the stream is not one of ours (the SDK serves it).
   */
  resume(
    request: IncomingMessage,
    response: ServerResponse,
    owner: O,
    sessionId: string,
    versions: ProtocolVersions,
  ) {
    const lastEventId = headerOf(request, "last-event-id");
    if (!lastEventId || !headerOf(request, "accept")?.includes("text/event-stream")) return false;
    if (versionOf(request, versions) === undefined) return false;
    const streamId = this.events.streamIdOf(lastEventId);
    const fast = streamId === undefined ? undefined : this.live.get(streamId);
    if (!fast || fast.owner !== owner) return false;
    if (fast.response) {
      response.writeHead(409, { "content-type": "application/json" }).end(
        JSON.stringify({
          jsonrpc: "2.0",
          error: { code: -32000, message: "Conflict: Stream already has an active connection" },
          id: null,
        }),
      );
      return true;
    }
    writeSseHead(response, sessionId);
    this.events.eventsAfter(lastEventId, (eventId, message) => {
      response.write(eventText(eventId, message));
    });
    this.attach(fast, response);
    return true;
  }

  forget(fast: FastCall<O>): void {
    this.live.delete(fast.streamId);
    this.keepAlive.delete(fast);
  }

  close(): void {
    this.keepAlive.close();
  }
}
