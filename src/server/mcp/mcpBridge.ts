import { randomUUID } from "node:crypto";
import { MCP_MODEL_PREFIX } from "../../protocol/index.ts";
import type { SessionManager } from "../sessions/sessionManager.ts";
import { randomId } from "../store/ids.ts";
import type { SessionLog } from "../store/sessionLog.ts";
import {
  classify,
  errorOf,
  INVALID_PARAMS,
  INVALID_REQUEST,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  resultOf,
} from "./jsonRpc.ts";
import { mcpTools } from "./mcpTools.ts";

/** Newest first; an agent asking for another version is answered with the newest. */
export const MCP_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/** Enough for every agent on one machine; the oldest connection makes room for a new one. */
const MAX_CONNECTIONS = 64;
const SERVER_VERSION = "0.1.0";
/** A person may take minutes; agents that asked for progress hear this often that we still wait. */
const PROGRESS_EVERY_MS = 10_000;

const INSTRUCTIONS =
  "plangate shows your questions, plans and todo list to the user in a web page. Ask with ask_user_question, submit a plan for approval with review_plan, and keep your todo list with write_todos. Each call waits until the user answers.";

/** One agent connected over MCP; its calls go to one plangate session, made on first use. */
interface McpConnection {
  readonly id: string;
  readonly client: string;
  sessionId: string | undefined;
  /** The user's messages up to this seq have been passed to the agent. */
  heardSeq: number;
  readonly inflight: Map<JsonRpcId, AbortController>;
}

export interface McpBridgeDeps {
  sessions: SessionManager;
  log: SessionLog;
  progressEveryMs?: number;
}

/** Sends a notification to the agent while its call still waits (over a stream, see mcpRoute). */
export type NotifyAgent = (notification: JsonRpcNotification) => void;

/** What the HTTP layer sends back: a status, maybe a JSON body, maybe a new connection id. */
export interface McpReply {
  status: number;
  body?: JsonRpcResponse | JsonRpcResponse[];
  connectionId?: string;
}

function clientNameOf(params: unknown): string {
  const info = (params as { clientInfo?: { name?: unknown } } | undefined)?.clientInfo;
  const raw = typeof info?.name === "string" ? info.name : "";
  const name = raw
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return name || "agent";
}

function requestedVersion(params: unknown): string {
  const asked = (params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  return typeof asked === "string" && MCP_PROTOCOL_VERSIONS.includes(asked)
    ? asked
    : (MCP_PROTOCOL_VERSIONS[0] as string);
}

/**
 * X1: the MCP side of plangate (Streamable HTTP, JSON replies). An agent that speaks MCP gets
 * `ask_user_question`, `review_plan` and `write_todos`, which put its questions, plans and
 * todos on the same cards as plangate's own agent, countdown included. What the user types
 * into that session's message box reaches the agent with its next result.
 */
export class McpBridge {
  private readonly connections = new Map<string, McpConnection>();
  private readonly tools = mcpTools();

  constructor(private readonly deps: McpBridgeDeps) {}

  async handlePost(
    body: string,
    connectionId: string | undefined,
    signal: AbortSignal,
    notify?: NotifyAgent,
  ): Promise<McpReply> {
    let decoded: unknown;
    try {
      decoded = JSON.parse(body);
    } catch {
      return { status: 400, body: errorOf(null, PARSE_ERROR, "the body is not valid JSON") };
    }
    if (Array.isArray(decoded)) {
      if (decoded.length === 0) {
        return { status: 400, body: errorOf(null, INVALID_REQUEST, "an empty batch") };
      }
      const replies = await Promise.all(
        decoded.map((item) => this.handleOne(item, connectionId, signal, notify)),
      );
      const bodies = replies.flatMap((reply) => (reply.body === undefined ? [] : [reply.body]));
      return bodies.length === 0 ? { status: 202 } : { status: 200, body: bodies.flat() };
    }
    return this.handleOne(decoded, connectionId, signal, notify);
  }

  /** DELETE: the agent ends its connection; calls still waiting are withdrawn. */
  end(connectionId: string | undefined): boolean {
    const connection = connectionId === undefined ? undefined : this.connections.get(connectionId);
    if (!connection) return false;
    this.drop(connection, "the agent ended its MCP session");
    return true;
  }

  close(): void {
    for (const connection of [...this.connections.values()]) {
      this.drop(connection, "plangate is shutting down");
    }
  }

  private drop(connection: McpConnection, reason: string): void {
    this.connections.delete(connection.id);
    for (const call of connection.inflight.values()) call.abort(reason);
  }

  private async handleOne(
    value: unknown,
    connectionId: string | undefined,
    signal: AbortSignal,
    notify: NotifyAgent | undefined,
  ): Promise<McpReply> {
    const incoming = classify(value);
    switch (incoming.kind) {
      case "invalid":
        return { status: 400, body: errorOf(incoming.id, INVALID_REQUEST, incoming.reason) };
      case "response":
        return { status: 202 };
      case "notification": {
        const connection = connectionId ? this.connections.get(connectionId) : undefined;
        if (incoming.message.method === "notifications/cancelled" && connection) {
          const requestId = (incoming.message.params as { requestId?: JsonRpcId } | undefined)
            ?.requestId;
          if (requestId !== undefined) {
            connection.inflight.get(requestId)?.abort("the agent cancelled the call");
          }
        }
        return { status: 202 };
      }
      case "request":
        return this.handleRequest(incoming.message, connectionId, signal, notify);
    }
  }

  private async handleRequest(
    request: JsonRpcRequest,
    connectionId: string | undefined,
    signal: AbortSignal,
    notify: NotifyAgent | undefined,
  ): Promise<McpReply> {
    if (request.method === "initialize") return this.initialize(request);
    if (connectionId === undefined) {
      return {
        status: 400,
        body: errorOf(request.id, INVALID_REQUEST, "missing Mcp-Session-Id: initialize first"),
      };
    }
    const connection = this.connections.get(connectionId);
    if (!connection) {
      return {
        status: 404,
        body: errorOf(
          request.id,
          INVALID_REQUEST,
          "unknown or ended MCP session: initialize again",
        ),
      };
    }
    switch (request.method) {
      case "ping":
        return { status: 200, body: resultOf(request.id, {}) };
      case "tools/list":
        return { status: 200, body: resultOf(request.id, { tools: this.toolList() }) };
      case "tools/call":
        return { status: 200, body: await this.callTool(connection, request, signal, notify) };
      default:
        return {
          status: 200,
          body: errorOf(request.id, METHOD_NOT_FOUND, `plangate does not offer ${request.method}`),
        };
    }
  }

  private initialize(request: JsonRpcRequest): McpReply {
    if (this.connections.size >= MAX_CONNECTIONS) {
      const oldest = this.connections.values().next().value;
      if (oldest) this.drop(oldest, "too many agents are connected");
    }
    const connection: McpConnection = {
      id: randomUUID(),
      client: clientNameOf(request.params),
      sessionId: undefined,
      heardSeq: 0,
      inflight: new Map(),
    };
    this.connections.set(connection.id, connection);
    return {
      status: 200,
      connectionId: connection.id,
      body: resultOf(request.id, {
        protocolVersion: requestedVersion(request.params),
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: "plangate", version: SERVER_VERSION },
        instructions: INSTRUCTIONS,
      }),
    };
  }

  private toolList() {
    return this.tools.specs().map((spec) => ({
      name: spec.name,
      description: spec.description,
      inputSchema: spec.inputSchema,
    }));
  }

  private async callTool(
    connection: McpConnection,
    request: JsonRpcRequest,
    signal: AbortSignal,
    notify: NotifyAgent | undefined,
  ): Promise<JsonRpcResponse> {
    const params = request.params as
      | { name?: unknown; arguments?: unknown; _meta?: { progressToken?: unknown } }
      | undefined;
    const name = params?.name;
    if (typeof name !== "string" || this.tools.get(name) === undefined) {
      const offered = this.tools
        .list()
        .map((tool) => tool.name)
        .join(", ");
      return errorOf(
        request.id,
        INVALID_PARAMS,
        `unknown tool ${String(name)}; offered: ${offered}`,
      );
    }
    const call = new AbortController();
    const withdraw = () => call.abort("the agent disconnected");
    signal.addEventListener("abort", withdraw, { once: true });
    connection.inflight.set(request.id, call);
    const heartbeat = this.keepInformed(params?._meta?.progressToken, notify);
    try {
      const sessionId = this.sessionOf(connection);
      const result = await this.deps.sessions.runExternalCall(
        sessionId,
        { callId: randomId("mcp_"), name, input: params?.arguments ?? {} },
        this.tools,
        call.signal,
      );
      const heard = this.userMessagesFor(connection, sessionId);
      return resultOf(request.id, {
        content: [{ type: "text", text: result.output + heard }],
        isError: result.isError ?? false,
      });
    } finally {
      clearInterval(heartbeat);
      signal.removeEventListener("abort", withdraw);
      connection.inflight.delete(request.id);
    }
  }

  /**
   * Agents time out calls that take long (the SDK's default is a minute) unless progress
   * resets the clock; a question may wait five minutes and a plan review for good.
   */
  private keepInformed(token: unknown, notify: NotifyAgent | undefined) {
    if (notify === undefined || (typeof token !== "string" && typeof token !== "number")) {
      return undefined;
    }
    let beats = 0;
    return setInterval(() => {
      beats += 1;
      notify({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: {
          progressToken: token,
          progress: beats,
          message: "waiting for the user in plangate",
        },
      });
    }, this.deps.progressEveryMs ?? PROGRESS_EVERY_MS);
  }

  /**
   * The agent's session: its latest one when no connection holds it any more (an agent that
   * ended its MCP session and comes back goes on where it was, and hears what the user wrote
   * meanwhile), else a new one. A connection holds its session until it is ended (DELETE).
   */
  private sessionOf(connection: McpConnection): string {
    if (connection.sessionId !== undefined) return connection.sessionId;
    const model = `${MCP_MODEL_PREFIX}${connection.client}`;
    const held = new Set([...this.connections.values()].map((other) => other.sessionId));
    // Listed most recently updated first.
    const previous = this.deps.log
      .listSessions()
      .find((session) => session.model === model && !held.has(session.id));
    if (previous) {
      connection.sessionId = previous.id;
      // Where the agent last heard from plangate: its last call's result.
      const lastResult = this.deps.log.latestOfKind(
        previous.id,
        "tool.result",
        previous.lastSeq + 1,
      );
      connection.heardSeq = lastResult?.seq ?? 0;
      return previous.id;
    }
    const session = this.deps.sessions.create({ title: connection.client, model, mode: "build" });
    connection.sessionId = session.id;
    connection.heardSeq = session.lastSeq;
    return session.id;
  }

  /** Messages the user typed into the agent's session since its last result. */
  private userMessagesFor(connection: McpConnection, sessionId: string): string {
    const entries = this.deps.log.entriesAfter(sessionId, connection.heardSeq);
    const last = entries.at(-1);
    if (last) connection.heardSeq = last.seq;
    const texts = entries.flatMap(({ entry }) =>
      entry.kind === "user.message" && !entry.synthetic ? [entry.text] : [],
    );
    if (texts.length === 0) return "";
    return `\n\nThe user also wrote to you in plangate:\n\n${texts.map((text) => `> ${text.replaceAll("\n", "\n> ")}`).join("\n\n")}`;
  }
}
