import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  CallToolResult,
  RequestId,
  ServerNotification,
  ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { Database } from "better-sqlite3";
import { MCP_MODEL_PREFIX } from "../../protocol/index.ts";
import { danglingCalls } from "../sessions/conversation.ts";
import type { SessionManager } from "../sessions/sessionManager.ts";
import type { ToolCallToRun } from "../sessions/toolExecutor.ts";
import { randomId } from "../store/ids.ts";
import type { SessionLog } from "../store/sessionLog.ts";
import type { SqlDb } from "../store/sqlDb.ts";
import { AgentInbox } from "./agentInbox.ts";
import { AgentSessions } from "./agentSessions.ts";
import { type McpToolResult, mcpOutputSchemas, mcpTools } from "./mcpTools.ts";
import { SqliteEventStore } from "./sqliteEventStore.ts";
import { canonicalJson, type WaitingCall, WaitingCalls } from "./waitingCalls.ts";

type McpSdk = typeof import("./mcpSdk.ts");
let sdkLoading: Promise<McpSdk> | undefined;
/** The SDK, loaded on the first /mcp request rather than at every start (see mcpSdk.ts). */
const mcpSdk = () => {
  sdkLoading ??= import("./mcpSdk.ts");
  return sdkLoading;
};

const SERVER_VERSION = "0.1.0";
/** B4: comfortably inside the 15 s that keeps read timeouts of clients and proxies quiet. */
const KEEP_ALIVE_MS = 10_000;
/** A person may take minutes; agents that asked for progress hear this often that we still wait. */
const PROGRESS_EVERY_MS = 10_000;
/** B5: a connection with no request open and no call waiting this long is closed. */
const IDLE_MS = 60 * 60 * 1000;
/** B5: past this many connections the longest idle one makes room; waiting ones never do. */
export const MAX_CONNECTIONS = 64;
/** Agents that offer MCP roots answer at once; one that does not must not hold up its call. */
const ROOTS_TIMEOUT_MS = 3_000;
/** JSON-RPC server error: the call did not finish, and calling again is safe. */
export const RETRY_ERROR_CODE = -32000;

const INSTRUCTIONS =
  "plangate shows your questions, plans and todo list to the user in a web page. Ask with ask_user_question, submit a plan for approval with review_plan, and keep your todo list with write_todos. Each call waits until the user answers; if a call fails because plangate restarted or the connection dropped, make the same call again to go on waiting for the same question.";

export interface McpBridgeDeps {
  sessions: SessionManager;
  log: SessionLog;
  /** Where stream events (B3) and agents' sessions (B6) are kept. */
  db: Database | SqlDb;
  /** The agent's workspace root when it offers no MCP roots (B6). */
  workspace: string;
  progressEveryMs?: number;
  keepAliveMs?: number;
  idleMs?: number;
  now?: () => number;
}

type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * One request waiting on a call (B3): the agent's cancel reaches it through `handleEvent`, so
 * a waiting request holds this object instead of closures.
 */
class Waiter {
  private beats = 0;
  private readonly token: string | number | undefined;

  constructor(
    private readonly bridge: McpBridge,
    private readonly connection: McpConnection,
    private readonly call: WaitingCall,
    private readonly extra: ToolExtra,
  ) {
    call.waiters += 1;
    connection.calls.set(extra.requestId, call.tool);
    extra.signal.addEventListener("abort", this, { once: true });
    this.token = extra._meta?.progressToken;
    if (this.token !== undefined) bridge.keepInformed(this);
  }

  handleEvent(): void {
    this.bridge.withdraw(this.connection, this.call);
  }

  beat(): void {
    this.beats += 1;
    this.extra
      .sendNotification({
        method: "notifications/progress",
        params: {
          progressToken: this.token as string | number,
          progress: this.beats,
          message: "waiting for the user in plangate",
        },
      })
      .catch(() => {});
  }

  done(): void {
    if (this.token !== undefined) this.bridge.stopInforming(this);
    this.extra.signal.removeEventListener("abort", this);
    this.call.waiters -= 1;
    this.connection.calls.delete(this.extra.requestId);
  }
}

/** One MCP session: an SDK server and its transport, for one agent process. */
interface McpConnection {
  id: string | undefined;
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  protocolVersion: string;
  lastSeen: number;
  openRequests: number;
  /** Tool calls in flight by request id, so a shutdown can answer each (B8). */
  readonly calls: Map<RequestId, string>;
  /** Closed by plangate (idle, shutdown), not by the agent: its calls go on waiting (B3). */
  quiet: boolean;
  /** The agent ended this MCP session (DELETE). */
  ended: boolean;
  session: Promise<string> | undefined;
}

export type McpTarget =
  | { ok: true; connection: McpConnection }
  | { ok: false; status: number; code: number; message: string };

function clientNameOf(raw: string | undefined): string {
  const name = (raw ?? "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return name || "agent";
}

function retryText(tool: string): string {
  return `plangate restarted before the user answered. Call ${tool} again with the same arguments: the same question is still waiting for the user, and the call picks it up.`;
}

/**
 * X1 + B1–B8: plangate over MCP, on the official SDK's server and Streamable HTTP transport.
 * A tool call belongs to the question it asks, not to the HTTP request that carried it: a
 * dropped stream resumes from the event store, an identical call joins the waiting one, and
 * after a restart the same call picks up the same pending card.
 */
export class McpBridge {
  private readonly connections = new Map<string, McpConnection>();
  private readonly tools = mcpTools();
  private readonly waiting = new WaitingCalls();
  private readonly events: SqliteEventStore;
  private readonly agents: AgentSessions;
  private readonly inbox: AgentInbox;
  private readonly resolving = new Map<string, Promise<string>>();
  /** B8: calls of each session left without a result by the last shutdown. */
  private readonly unfinished = new Map<string, ToolCallToRun[]>();
  private readonly responses = new Set<ServerResponse>();
  /** B4: the waiting calls whose agents asked for progress, and the one timer that beats. */
  private readonly informed = new Set<Waiter>();
  private progress: ReturnType<typeof setInterval> | undefined;
  private readonly sweeper: ReturnType<typeof setInterval>;
  private closing = false;

  constructor(private readonly deps: McpBridgeDeps) {
    this.events = new SqliteEventStore(deps.db);
    this.agents = new AgentSessions(deps.db);
    this.inbox = new AgentInbox(deps.log);
    const idleMs = deps.idleMs ?? IDLE_MS;
    this.sweeper = setInterval(() => this.expireIdle(), Math.min(idleMs, 60_000));
    this.sweeper.unref();
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** Finds (or, for an initialize, opens) the connection a request belongs to. */
  async target(sessionHeader: string | undefined, body: unknown): Promise<McpTarget> {
    // First, so what follows decides and opens in one go, as before the SDK was loaded lazily.
    const sdk = await mcpSdk();
    if (this.closing) {
      return {
        ok: false,
        status: 503,
        code: RETRY_ERROR_CODE,
        message: "plangate is restarting; retry in a moment",
      };
    }
    if (sessionHeader !== undefined) {
      const connection = this.connections.get(sessionHeader);
      if (!connection) {
        return {
          ok: false,
          status: 404,
          code: -32001,
          message: "Session not found: initialize a new MCP session",
        };
      }
      return { ok: true, connection };
    }
    if (!sdk.isInitializeRequest(body)) {
      return {
        ok: false,
        status: 400,
        code: -32000,
        message: "Bad Request: Mcp-Session-Id header is required; initialize first",
      };
    }
    return { ok: true, connection: await this.open(sdk, body.params.protocolVersion) };
  }

  /** The version a connection speaks, for the transport rules (B2). */
  protocolVersionOf(sessionHeader: string | undefined): string | undefined {
    return sessionHeader === undefined
      ? undefined
      : this.connections.get(sessionHeader)?.protocolVersion;
  }

  /** B5: an open request keeps its connection from counting as idle. */
  track(connection: McpConnection, response: ServerResponse): void {
    connection.openRequests += 1;
    connection.lastSeen = this.now();
    this.responses.add(response);
    response.once("close", () => {
      connection.openRequests -= 1;
      connection.lastSeen = this.now();
      this.responses.delete(response);
    });
  }

  /**
   * B8: every call still waiting is answered with a JSON-RPC error that says to call again;
   * its question stays pending in the log, so the retried call after the restart picks it up.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearInterval(this.sweeper);
    clearInterval(this.progress);
    const connections = [...this.connections.values()];
    for (const connection of connections) {
      connection.quiet = true;
      for (const [id, tool] of connection.calls) {
        await connection.transport
          .send({
            jsonrpc: "2.0",
            id,
            error: { code: RETRY_ERROR_CODE, message: retryText(tool), data: { retry: true } },
          })
          .catch(() => {});
      }
    }
    await Promise.all(connections.map((connection) => connection.server.close().catch(() => {})));
    await this.flushed(1_000);
  }

  /** Lets the streams just closed carry their last bytes before the sockets go. */
  private async flushed(capMs: number): Promise<void> {
    const open = [...this.responses].map(
      (response) => new Promise<void>((resolve) => response.once("close", () => resolve())),
    );
    if (open.length === 0) return;
    await Promise.race([Promise.all(open), new Promise((resolve) => setTimeout(resolve, capMs))]);
  }

  private async open(sdk: McpSdk, requestedVersion: string): Promise<McpConnection> {
    const { LATEST_PROTOCOL_VERSION, McpServer, StreamableHTTPServerTransport } = sdk;
    this.makeRoom();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: this.events,
      keepAliveMs: this.deps.keepAliveMs ?? KEEP_ALIVE_MS,
      onsessioninitialized: (id) => {
        connection.id = id;
        this.connections.set(id, connection);
      },
      onsessionclosed: () => {
        connection.ended = true;
      },
    });
    const server = new McpServer(
      { name: "plangate", version: SERVER_VERSION },
      { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
    );
    const connection: McpConnection = {
      id: undefined,
      transport,
      server,
      protocolVersion: sdk.SUPPORTED_PROTOCOL_VERSIONS.includes(requestedVersion)
        ? requestedVersion
        : LATEST_PROTOCOL_VERSION,
      lastSeen: this.now(),
      openRequests: 0,
      calls: new Map(),
      quiet: false,
      ended: false,
      session: undefined,
    };
    transport.onclose = () => {
      if (connection.id !== undefined && this.connections.get(connection.id) === connection) {
        this.connections.delete(connection.id);
      }
    };
    this.registerTools(connection);
    await server.connect(transport);
    return connection;
  }

  private registerTools(connection: McpConnection): void {
    for (const tool of this.tools.list()) {
      const name = tool.name as keyof typeof mcpOutputSchemas;
      connection.server.registerTool(
        name,
        {
          description: tool.description,
          inputSchema: tool.inputSchema as never,
          outputSchema: mcpOutputSchemas[name] as never,
          annotations: { readOnlyHint: tool.readOnly, destructiveHint: tool.destructive },
        },
        ((args: unknown, extra: ToolExtra) =>
          this.callTool(connection, name, args, extra)) as never,
      );
    }
  }

  private async callTool(
    connection: McpConnection,
    name: string,
    args: unknown,
    extra: ToolExtra,
  ): Promise<CallToolResult> {
    const sessionId = await this.sessionOf(connection, extra);
    this.inbox.open(sessionId);
    const call = this.waiting.join(sessionId, name, args, (signal) =>
      this.run(sessionId, name, args, signal),
    );
    // Held as data while it waits: the request's listener, its progress and its cleanup; the
    // result is chained, not awaited, so no suspended frame of this function waits with it.
    const waiter = new Waiter(this, connection, call, extra);
    return call.result
      .finally(() => {
        waiter.done();
        connection.lastSeen = this.now();
      })
      .then((result) => {
        const heard = this.inbox.take(sessionId);
        return {
          content: [{ type: "text", text: result.output + heard }],
          ...(result.structured && !result.isError ? { structuredContent: result.structured } : {}),
          isError: result.isError ?? false,
        };
      });
  }

  /** B3: only the agent's own cancel withdraws the question; losing the connection does not. */
  withdraw(connection: McpConnection, call: WaitingCall): void {
    if (connection.quiet || this.closing) return;
    // Ending one MCP session (DELETE) leaves a call that another session of the agent awaits.
    if (connection.ended && call.waiters > 1) return;
    call.cancel(
      connection.ended ? "the agent ended its MCP session" : "the agent cancelled the call",
    );
  }

  /**
   * B4: agents time out calls that take long (the SDK's default is a minute) unless progress
   * resets the clock; the stream's keep-alive covers read timeouts, this covers call timeouts.
   * One timer beats for every waiting call that asked for progress.
   */
  keepInformed(waiter: Waiter): void {
    this.informed.add(waiter);
    this.progress ??= setInterval(() => {
      for (const each of this.informed) each.beat();
    }, this.deps.progressEveryMs ?? PROGRESS_EVERY_MS);
  }

  stopInforming(waiter: Waiter): void {
    this.informed.delete(waiter);
    if (this.informed.size > 0 || this.progress === undefined) return;
    clearInterval(this.progress);
    this.progress = undefined;
  }

  /** Runs the call; after a restart the same call still without a result is run again (B8). */
  private run(sessionId: string, name: string, args: unknown, signal: AbortSignal) {
    const wanted = canonicalJson(args);
    const left = this.unfinishedOf(sessionId);
    const index = left.findIndex(
      (call) => call.name === name && canonicalJson(call.input) === wanted,
    );
    const unfinished = index >= 0 ? left.splice(index, 1)[0] : undefined;
    const call = unfinished ?? { callId: randomId("mcp_"), name, input: args };
    return this.deps.sessions.runExternalCall(sessionId, call, this.tools, signal, {
      resumed: unfinished !== undefined,
    }) as Promise<McpToolResult>;
  }

  /** Calls without a result can only come from before this start, so the log is read once. */
  private unfinishedOf(sessionId: string): ToolCallToRun[] {
    let calls = this.unfinished.get(sessionId);
    if (!calls) {
      calls = danglingCalls(this.deps.log.entriesAfter(sessionId, 0));
      this.unfinished.set(sessionId, calls);
    }
    return calls;
  }

  /** B6: the agent's plangate session, by its client name and workspace root. */
  private sessionOf(connection: McpConnection, extra: ToolExtra): Promise<string> {
    connection.session ??= this.resolveSession(connection, extra);
    return connection.session;
  }

  private async resolveSession(connection: McpConnection, extra: ToolExtra): Promise<string> {
    const client = clientNameOf(connection.server.server.getClientVersion()?.name);
    const root = await this.rootOf(connection, extra);
    const key = `${client}\u0000${root}`;
    let resolving = this.resolving.get(key);
    if (!resolving) {
      resolving = Promise.resolve().then(() => this.sessionFor(client, root));
      this.resolving.set(key, resolving);
      resolving.finally(() => this.resolving.delete(key)).catch(() => {});
    }
    return resolving;
  }

  private sessionFor(client: string, root: string): string {
    const known = this.agents.sessionOf(client, root);
    if (known !== undefined && this.deps.log.getSession(known)) return known;
    const session = this.deps.sessions.create({
      title: client,
      model: `${MCP_MODEL_PREFIX}${client}`,
      mode: "build",
    });
    this.agents.remember(client, root, session.id);
    this.inbox.startAt(session.id, session.lastSeq);
    return session.id;
  }

  private async rootOf(connection: McpConnection, extra: ToolExtra): Promise<string> {
    if (!connection.server.server.getClientCapabilities()?.roots) return this.deps.workspace;
    try {
      const { ListRootsResultSchema } = await mcpSdk();
      const { roots } = await extra.sendRequest({ method: "roots/list" }, ListRootsResultSchema, {
        timeout: ROOTS_TIMEOUT_MS,
      });
      const uri = roots.find((root) => root.uri.startsWith("file:"))?.uri;
      return uri === undefined ? this.deps.workspace : fileURLToPath(uri);
    } catch {
      return this.deps.workspace;
    }
  }

  /** B5: idle connections expire; one with a call waiting or a request open never does. */
  private expireIdle(): void {
    this.events.prune();
    const cutoff = this.now() - (this.deps.idleMs ?? IDLE_MS);
    for (const connection of [...this.connections.values()]) {
      if (this.idle(connection) && connection.lastSeen <= cutoff) this.retire(connection);
    }
  }

  private makeRoom(): void {
    if (this.connections.size < MAX_CONNECTIONS) return;
    const idle = [...this.connections.values()]
      .filter((connection) => this.idle(connection))
      .sort((a, b) => a.lastSeen - b.lastSeen);
    for (const connection of idle.slice(0, this.connections.size - MAX_CONNECTIONS + 1)) {
      this.retire(connection);
    }
  }

  private idle(connection: McpConnection): boolean {
    return connection.calls.size === 0 && connection.openRequests === 0;
  }

  private retire(connection: McpConnection): void {
    connection.quiet = true;
    if (connection.id !== undefined) this.connections.delete(connection.id);
    connection.server.close().catch(() => {});
  }

  get connectionCount(): number {
    return this.connections.size;
  }
}
