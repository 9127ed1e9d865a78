import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  CallToolResult,
  ListToolsResult,
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
import { isStorageFailure } from "../store/storageHealth.ts";
import { AgentInbox } from "./agentInbox.ts";
import { AgentSessions } from "./agentSessions.ts";
import {
  cancelledIdOf,
  type FastCall,
  type FastRequest,
  FastStreams,
  fastPostVersionOf,
  fastRequestOf,
  respondJson,
  taskPollOf,
  WAITING_FOR_USER,
} from "./fastCalls.ts";
import {
  type AgentTask,
  AgentTasks,
  type LoggedTasks,
  loggedTasks,
  MCP_CALL_PREFIX,
  RELATED_TASK_META,
  TASK_CAPABILITIES,
  TASK_KEEP_MS,
  taskPage,
} from "./mcpTasks.ts";
import {
  type McpToolResult,
  mcpOutputSchemas,
  mcpToolListing,
  mcpTools,
  TASK_TOOLS,
} from "./mcpTools.ts";
import { SpreadBeat } from "./spreadBeat.ts";
import { SessionEvents, SqliteEventStore } from "./sqliteEventStore.ts";
import {
  canonicalJson,
  MAX_ARGUMENT_DEPTH,
  nestsDeeperThan,
  TooDeepError,
  type WaitingCall,
  WaitingCalls,
} from "./waitingCalls.ts";

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
/**
 * R12: calls one MCP session may have waiting at once. An agent asks one question at a time
 * (a few, with subagents); past this a client is flooding the user's inbox. It stays above
 * what issue 15's goal needs, 10,000 calls at once over the 64 connections (≥ 157 each).
 */
export const MAX_WAITING_PER_SESSION = 256;
/** Issue 15: the longest run of call intake before pages and timers get the loop back. */
const INTAKE_SLICE_MS = 8;
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
  /** The shortest poll interval MCP tasks ask of their agents. */
  taskPollMs?: number;
  keepAliveMs?: number;
  idleMs?: number;
  maxWaitingPerSession?: number;
  now?: () => number;
}

type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;
/** A fast call of one of the bridge's connections. */
type McpFastCall = FastCall<McpConnection>;
/** A fast call taken in: its connection, the call, its arguments, and whether it asks for a task. */
type Intake = [McpConnection, McpFastCall, unknown, boolean];

/** What the log held for a session when this process first read it. */
interface BeforeStart {
  /** B8: calls left without a result by the last shutdown, run again when asked again. */
  unfinished: ToolCallToRun[];
  /**
   * MCP calls that ended within TASK_KEEP_MS, by call id (their tasks' results), and the calls
   * made as tasks. Read only when an agent asks for a task this process does not know, or lists
   * its tasks, not on every session's first call.
   */
  tasks?: LoggedTasks;
}

/**
 * One request waiting on a call (B3): the agent's cancel reaches it through `handleEvent`, so
 * a waiting request holds this object instead of closures.
 */
class Waiter {
  /** Progress beats sent; -1 once this request no longer waits. */
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
    this.bridge.withdraw(this.connection, this.call, this);
    // The call goes on for another request awaiting it; this one's cancel ends only itself.
    this.done();
  }

  beat(): void {
    this.beats += 1;
    this.extra
      .sendNotification({
        method: "notifications/progress",
        params: {
          progressToken: this.token as string | number,
          progress: this.beats,
          message: WAITING_FOR_USER,
        },
      })
      .catch(() => {});
  }

  done(): void {
    if (this.beats < 0) return;
    this.beats = -1;
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
  /** Task-augmented calls the fast path left to the SDK (the first, when roots are asked). */
  readonly taskCalls: Set<RequestId>;
  /** The calls the fast path holds as data, by request id (issue 15). */
  readonly fast: Map<RequestId, McpFastCall>;
  /** Calls taken in and not yet answered, on either path (R12: capped). */
  waiting: number;
  /** Closed by plangate (idle, shutdown), not by the agent: its calls go on waiting (B3). */
  quiet: boolean;
  /** The agent ended this MCP session (DELETE). */
  ended: boolean;
  session: Promise<string> | undefined;
  /** The plangate session once known, so calls after the first start without a promise. */
  sessionId: string | undefined;
  /** B3: the event store as this MCP session sees it (Last-Event-ID resumes only its streams). */
  readonly events: SessionEvents;
}

export type McpTarget =
  | { ok: true; connection: McpConnection }
  | { ok: false; status: number; code: number; message: string };

/**
 * B6: the agent's name keys its session, so two agents named in any script stay apart: letters
 * and digits of every script are kept, anything else (spaces, slashes, controls) is a dash.
 */
export function clientNameOf(raw: string | undefined): string {
  const name = [...(raw ?? "").normalize("NFC").replace(/[^\p{L}\p{N}\p{M}._-]+/gu, "-")]
    .slice(0, 40)
    .join("")
    .replace(/^-+|-+$/g, "");
  return name || "agent";
}

/** B1: what an agent gets back for a result, with what it has not heard yet (B7). */
function toCallResult(result: McpToolResult, heard: string): CallToolResult {
  return {
    content: [{ type: "text", text: result.output + heard }],
    ...(result.structured && !result.isError ? { structuredContent: result.structured } : {}),
    isError: result.isError ?? false,
  };
}

/** A tool error result, as the SDK's McpServer words one. */
function toolError(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function tooManyText(max: number): string {
  return `plangate: this MCP session already has ${max} calls waiting for the user, the most it takes at once. Nothing was queued; wait for an answer (or cancel a call) before asking more.`;
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
  /** What each session's log held before this start (B8, MCP tasks). */
  private readonly beforeStart = new Map<string, BeforeStart>();
  /** MCP tasks: waiting calls an agent polls instead of holding a request. */
  private readonly tasks: AgentTasks;
  /** tools/list, the same for every connection, made once. */
  private toolListing: ListToolsResult | undefined;
  /** Open requests, by response, and the connection each keeps from idling (B5). */
  private readonly responses = new Map<ServerResponse, McpConnection>();
  /** One "close" listener for every tracked response, not a closure per request (issue 15). */
  private readonly untrack: (this: ServerResponse) => void;
  /** B4: the waiting calls whose agents asked for progress, each beating on its own phase. */
  private readonly informed: SpreadBeat<Waiter | McpFastCall>;
  private readonly fastStreams: FastStreams<McpConnection>;
  /** Fast calls taken in whose work waits for the next slice, first come first served. */
  private intake: Array<Intake | undefined> = [];
  private intakeHead = 0;
  private intaking: ReturnType<typeof setImmediate> | undefined;
  /** Our own tools that wait on the user, answered by the fast path (issue 15). */
  private readonly fastTools = new Set(this.tools.list().map((tool) => tool.name));
  private readonly sweeper: ReturnType<typeof setInterval>;
  private closing = false;
  /** Set by the first request's target(), which every request awaits before serveFast. */
  private sdk: McpSdk | undefined;

  constructor(private readonly deps: McpBridgeDeps) {
    this.events = new SqliteEventStore(deps.db);
    this.agents = new AgentSessions(deps.db);
    this.inbox = new AgentInbox(deps.log);
    this.tasks = new AgentTasks(
      () => this.now(),
      (task, result, error) =>
        result
          ? toCallResult(result, this.inbox.take(task.sessionId))
          : toolError(messageOf(error)),
      { minPollMs: deps.taskPollMs },
    );
    this.fastStreams = new FastStreams(
      this.events,
      deps.keepAliveMs ?? KEEP_ALIVE_MS,
      (fast, result, error) => this.fastEnded(fast, result, error),
    );
    this.informed = new SpreadBeat(deps.progressEveryMs ?? PROGRESS_EVERY_MS, (waiter) =>
      waiter.beat(),
    );
    const closed = (response: ServerResponse) => this.closed(response);
    this.untrack = function (this: ServerResponse) {
      closed(this);
    };
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
    this.sdk = sdk;
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
    // Gone while its connection was found: no "close" is coming, and counting it would keep
    // the connection from ever idling (a client that drops every request would pile them up).
    if (response.destroyed) return;
    connection.openRequests += 1;
    connection.lastSeen = this.now();
    this.responses.set(response, connection);
    // `on`: "close" comes once, and a once-wrapper is three more objects per request.
    response.on("close", this.untrack);
  }

  private closed(response: ServerResponse): void {
    const connection = this.responses.get(response);
    if (!connection) return;
    this.responses.delete(response);
    connection.openRequests -= 1;
    connection.lastSeen = this.now();
  }

  /**
   * B8: every call still waiting is answered with a JSON-RPC error that says to call again;
   * its question stays pending in the log, so the retried call after the restart picks it up.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearInterval(this.sweeper);
    this.informed.close();
    this.fastStreams.close();
    const connections = [...this.connections.values()];
    for (const connection of connections) {
      connection.quiet = true;
      for (const fast of [...connection.fast.values()]) {
        this.release(connection, fast);
        fast.respond({
          jsonrpc: "2.0",
          id: fast.requestId,
          error: { code: RETRY_ERROR_CODE, message: retryText(fast.tool), data: { retry: true } },
        });
      }
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
    // The last events reach the database before it closes.
    const waiting = this.events.waiting;
    try {
      this.events.flush();
    } catch (error) {
      // R3: a store that refuses writes must not stop the shutdown; these events only let an
      // agent resume a stream of this process, which is ending anyway.
      console.error(
        `plangate: ${waiting} MCP stream event${waiting === 1 ? "" : "s"} could not be saved before shutdown:`,
        isStorageFailure(error) ? "the store refuses writes" : error,
      );
    }
  }

  /** Lets the streams just closed carry their last bytes before the sockets go. */
  private async flushed(capMs: number): Promise<void> {
    const open = [...this.responses.keys()].map(
      (response) => new Promise<void>((resolve) => response.once("close", () => resolve())),
    );
    if (open.length === 0) return;
    await Promise.race([Promise.all(open), new Promise((resolve) => setTimeout(resolve, capMs))]);
  }

  private async open(sdk: McpSdk, requestedVersion: string): Promise<McpConnection> {
    const { LATEST_PROTOCOL_VERSION, McpServer, StreamableHTTPServerTransport } = sdk;
    this.makeRoom();
    const events = new SessionEvents(this.events);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: events,
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
      {
        capabilities: { tools: { listChanged: false }, tasks: TASK_CAPABILITIES },
        instructions: INSTRUCTIONS,
      },
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
      taskCalls: new Set(),
      fast: new Map(),
      waiting: 0,
      quiet: false,
      ended: false,
      session: undefined,
      sessionId: undefined,
      events,
    };
    transport.onclose = () => {
      if (connection.id !== undefined && this.connections.get(connection.id) === connection) {
        this.connections.delete(connection.id);
      }
      // As the SDK aborts its handlers: an agent's DELETE withdraws (B3 rules in withdraw).
      for (const fast of [...connection.fast.values()]) {
        if (fast.call) this.withdraw(connection, fast.call, fast);
        this.release(connection, fast);
        fast.end();
      }
    };
    this.registerTools(connection);
    this.serveTasks(sdk, connection);
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

  /** MCP tasks: tasks/get, tasks/list, tasks/result and tasks/cancel, for the agent's own tasks only. */
  private serveTasks(sdk: McpSdk, connection: McpConnection): void {
    const server = connection.server.server;
    server.setRequestHandler(sdk.ListToolsRequestSchema, () => {
      this.toolListing ??= mcpToolListing(sdk, this.tools);
      return this.toolListing;
    });
    server.setRequestHandler(sdk.GetTaskRequestSchema, async (request, extra) =>
      this.tasks.view(await this.taskOf(sdk, connection, request.params.taskId, extra)),
    );
    server.setRequestHandler(sdk.ListTasksRequestSchema, async (request, extra) => {
      const sessionId = await this.knownSessionOf(connection, extra);
      const listed = taskPage(
        sessionId === undefined ? [] : this.listedTasks(sessionId),
        request.params?.cursor,
      );
      if (!listed) throw new sdk.McpError(sdk.ErrorCode.InvalidParams, "Invalid cursor");
      return {
        tasks: listed.page.map((task) => this.tasks.view(task)),
        ...(listed.nextCursor === undefined ? {} : { nextCursor: listed.nextCursor }),
      };
    });
    server.setRequestHandler(sdk.GetTaskPayloadRequestSchema, async (request, extra) => {
      const task = await this.taskOf(sdk, connection, request.params.taskId, extra);
      // Asked before the task ended: answered when it does, as the spec has tasks/result block.
      // R12: such a request waits as a call does, and counts as one.
      if (task.status === "working" && task.call) {
        if (this.full(connection)) {
          throw new sdk.McpError(sdk.ErrorCode.InvalidRequest, tooManyText(this.maxWaiting));
        }
        connection.waiting += 1;
        await task.call.result.catch(() => {});
        connection.waiting -= 1;
      }
      return {
        ...(task.result ?? toolError("The task ended without a result.")),
        _meta: { [RELATED_TASK_META]: { taskId: task.taskId } },
      };
    });
    server.setRequestHandler(sdk.CancelTaskRequestSchema, async (request, extra) => {
      const task = await this.taskOf(sdk, connection, request.params.taskId, extra);
      if (task.status !== "working") {
        throw new sdk.McpError(
          sdk.ErrorCode.InvalidParams,
          `Cannot cancel task: already in terminal status '${task.status}'`,
        );
      }
      this.tasks.cancel(task)?.cancel("the agent cancelled its task");
      return this.tasks.view(task);
    });
  }

  /**
   * The agent's task by id: its own plangate session's only, found again after a restart from
   * the log (a call still waiting is taken up again, an ended one read back).
   */
  private async taskOf(
    sdk: McpSdk,
    connection: McpConnection,
    taskId: string,
    extra: ToolExtra,
  ): Promise<AgentTask> {
    const sessionId = await this.knownSessionOf(connection, extra);
    const task =
      sessionId === undefined
        ? undefined
        : (this.tasks.get(taskId, sessionId) ?? this.restoreTask(sessionId, taskId));
    if (!task) throw new sdk.McpError(sdk.ErrorCode.InvalidParams, "Task not found");
    return task;
  }

  private restoreTask(sessionId: string, taskId: string): AgentTask | undefined {
    const before = this.beforeStartOf(sessionId);
    const left = before.unfinished.find((call) => call.callId === taskId);
    if (left) {
      if (!TASK_TOOLS.has(left.name)) return undefined;
      // B7: what the agent heard before the restart, it does not hear again with this result.
      this.inbox.open(sessionId);
      const call = this.join(sessionId, left.name, left.input, { callId: taskId, task: true });
      return call.callId === taskId ? this.tasks.track(sessionId, call) : undefined;
    }
    const endedCalls = this.loggedTasksOf(sessionId).ended;
    const ended = endedCalls.get(taskId);
    if (!ended || ended.endedAt + TASK_KEEP_MS <= this.now()) return undefined;
    // Held by its task from now on, and forgotten with it.
    endedCalls.delete(taskId);
    const result = { output: ended.output, isError: ended.isError, structured: ended.structured };
    return this.tasks.restore(
      taskId,
      sessionId,
      ended.createdAt,
      ended.endedAt,
      toCallResult(result, ended.heard),
    );
  }

  /** The agent's plangate session if it has one: asking for a task never makes one. */
  private async knownSessionOf(
    connection: McpConnection,
    extra: ToolExtra,
  ): Promise<string | undefined> {
    if (connection.session !== undefined) return this.sessionOf(connection, extra);
    return this.existingSession(this.clientOf(connection), await this.rootOf(connection, extra));
  }

  /** MCP tasks: a call made as a task is answered at once with its task, which then waits. */
  private startTask(sessionId: string, name: string, args: unknown): CallToolResult | object {
    if (this.tasks.workingIn(sessionId) >= this.maxWaiting) {
      return toolError(tooManyText(this.maxWaiting));
    }
    this.inbox.open(sessionId);
    const task = this.tasks.track(sessionId, this.join(sessionId, name, args, { task: true }));
    return { task: this.tasks.view(task) };
  }

  private async callTool(
    connection: McpConnection,
    name: string,
    args: unknown,
    extra: ToolExtra,
  ): Promise<CallToolResult> {
    if (connection.taskCalls.delete(extra.requestId)) {
      const sessionId = await this.sessionOf(connection, extra);
      return this.startTask(sessionId, name, args) as CallToolResult;
    }
    if (this.full(connection)) return toolError(tooManyText(this.maxWaiting));
    connection.waiting += 1;
    let sessionId: string;
    let call: WaitingCall;
    let waiter: Waiter;
    try {
      sessionId = await this.sessionOf(connection, extra);
      this.inbox.open(sessionId);
      call = this.join(sessionId, name, args);
      // Held as data while it waits: the request's listener, its progress and its cleanup; the
      // result is chained, not awaited, so no suspended frame of this function waits with it.
      waiter = new Waiter(this, connection, call, extra);
    } catch (error) {
      connection.waiting -= 1;
      throw error;
    }
    return call.result
      .finally(() => {
        waiter.done();
        connection.waiting -= 1;
        connection.lastSeen = this.now();
      })
      .then((result) => toCallResult(result, this.inbox.take(sessionId)));
  }

  /**
   * `callId`: the unfinished call (B8) to take up, when its task names it. `task`: the call is
   * made as a task, which its log entry says (a held call joined later leaves it unsaid).
   */
  private join(
    sessionId: string,
    name: string,
    args: unknown,
    made: { callId?: string; task?: boolean } = {},
  ): WaitingCall {
    return this.waiting.join(sessionId, name, args, (signal, call) =>
      this.run(sessionId, name, args, signal, call, made),
    );
  }

  private get maxWaiting(): number {
    return this.deps.maxWaitingPerSession ?? MAX_WAITING_PER_SESSION;
  }

  /** R12: the session has as many calls waiting as it may. */
  private full(connection: McpConnection): boolean {
    return connection.waiting >= this.maxWaiting;
  }

  /**
   * Issue 15: serves a request the SDK need not: a tools/call of our own tools (held as data
   * until answered), a GET resuming one of their streams, and an agent's cancel of one. False
   * when the SDK's transport is to serve the request (everything else, and every request that
   * fails a check the SDK words).
   */
  serveFast(
    connection: McpConnection,
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
  ): boolean {
    const sdk = this.sdk;
    if (connection.id === undefined || this.closing || !sdk) return false;
    if (request.method === "GET") {
      return this.fastStreams.resume(request, response, connection, connection.id, sdk);
    }
    if (request.method !== "POST") return false;
    const cancelled = cancelledIdOf(body);
    if (cancelled !== undefined) {
      // The SDK answers the notification (202); the call it names is ours to withdraw.
      const fast = connection.fast.get(cancelled);
      if (fast) {
        if (fast.call) this.withdraw(connection, fast.call, fast);
        this.release(connection, fast);
        fast.end();
      }
      return false;
    }
    if (this.servePoll(connection, connection.id, request, response, body, sdk)) return true;
    const call = fastRequestOf(body, this.fastTools);
    if (!call || connection.calls.has(call.id) || connection.fast.has(call.id)) return false;
    // The SDK answers a task asked of a tool that is over at once as an ordinary call.
    if (call.task && !TASK_TOOLS.has(call.name)) return false;
    // Roots are asked on the call's own stream: the SDK asks them, the first time.
    if (connection.session === undefined && this.hasRoots(connection)) {
      if (call.task) connection.taskCalls.add(call.id);
      return false;
    }
    const version = fastPostVersionOf(request, sdk);
    if (version === undefined) return false;
    const tool = this.tools.get(call.name);
    if (!tool) return false;
    // The same text, held once: the body's copy would be kept by every waiting call.
    call.name = tool.name;
    // R12: refused before anything (the schema, the call key) recurses over the arguments.
    if (nestsDeeperThan(call.args, MAX_ARGUMENT_DEPTH)) {
      this.answerNow(
        connection,
        response,
        version,
        call,
        `Input validation error: Invalid arguments for tool ${call.name}: ${new TooDeepError().message}`,
      );
      return true;
    }
    const parsed = tool.inputSchema.safeParse(call.args);
    // The SDK words validation errors as agents know them.
    if (!parsed.success) return false;
    if (this.full(connection)) {
      this.answerNow(connection, response, version, call, tooManyText(this.maxWaiting));
      return true;
    }
    connection.waiting += 1;
    const fast = this.fastStreams.open(response, connection, connection.id, version, call);
    connection.fast.set(call.id, fast);
    this.intake.push([connection, fast, parsed.data, call.task]);
    this.intaking ??= setImmediate(() => this.drain());
    return true;
  }

  /**
   * MCP tasks: a poll of a task this process knows is answered here, cheaply, as polls of many
   * waiting tasks add up; the SDK serves the rest (a first poll after a restart, errors).
   */
  private servePoll(
    connection: McpConnection,
    mcpSessionId: string,
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    sdk: McpSdk,
  ): boolean {
    const poll = taskPollOf(body);
    const sessionId = connection.sessionId;
    if (!poll || sessionId === undefined) return false;
    const task = this.tasks.get(poll.taskId, sessionId);
    if (!task || fastPostVersionOf(request, sdk) === undefined) return false;
    respondJson(response, mcpSessionId, {
      jsonrpc: "2.0",
      id: poll.id,
      result: this.tasks.view(task),
    });
    return true;
  }

  /**
   * Issue 15: a call's work (its log entries, card and countdown) runs in slices of at most
   * INTAKE_SLICE_MS between turns of the event loop, not while the loop reads a burst of
   * requests: pages, other clients and countdowns get their turn meanwhile.
   */
  private drain(): void {
    this.intaking = undefined;
    const until = performance.now() + INTAKE_SLICE_MS;
    while (this.intakeHead < this.intake.length && performance.now() < until) {
      const [connection, fast, args, task] = this.intake[this.intakeHead] as Intake;
      this.intake[this.intakeHead] = undefined;
      this.intakeHead += 1;
      const known = connection.sessionId;
      if (known !== undefined) {
        try {
          this.startFast(connection, fast, known, args, task);
        } catch (error) {
          // One call's failure answers that call; the calls behind it still start.
          this.finishFast(connection, fast, toolError(messageOf(error)));
        }
      } else {
        this.sessionOf(connection).then(
          (sessionId) => this.startFast(connection, fast, sessionId, args, task),
          (error: unknown) => this.finishFast(connection, fast, toolError(messageOf(error))),
        );
      }
    }
    if (this.intakeHead < this.intake.length) {
      this.intaking = setImmediate(() => this.drain());
    } else {
      this.intake = [];
      this.intakeHead = 0;
    }
  }

  private answerNow(
    connection: McpConnection,
    response: ServerResponse,
    version: string,
    call: FastRequest,
    text: string,
  ): void {
    const fast = this.fastStreams.open(response, connection, connection.id ?? "", version, call);
    fast.respond({ jsonrpc: "2.0", id: call.id, result: toolError(text) });
  }

  private startFast(
    connection: McpConnection,
    fast: McpFastCall,
    sessionId: string,
    args: unknown,
    task: boolean,
  ): void {
    // Cancelled, or the connection closed, before its session was known.
    if (fast.finished) return;
    if (task) {
      let created: CallToolResult | object;
      try {
        created = this.startTask(sessionId, fast.tool, args);
      } catch (error) {
        created = toolError(messageOf(error));
      }
      this.release(connection, fast);
      fast.respond({ jsonrpc: "2.0", id: fast.requestId, result: created as CallToolResult });
      return;
    }
    let call: WaitingCall;
    try {
      this.inbox.open(sessionId);
      call = this.join(sessionId, fast.tool, args);
    } catch (error) {
      this.finishFast(connection, fast, toolError(messageOf(error)));
      return;
    }
    fast.call = call;
    call.waiters += 1;
    if (fast.wantsProgress) this.keepInformed(fast);
    call.follow(fast);
  }

  /** A fast call's waiting call ended; one cancelled or closed before hears nothing more. */
  private fastEnded(fast: McpFastCall, result: McpToolResult | undefined, error: unknown): void {
    const connection = fast.owner;
    // Known: a fast call starts once its connection's session is.
    const sessionId = connection.sessionId;
    const heard = () => (sessionId === undefined ? "" : this.inbox.take(sessionId));
    this.finishFast(
      connection,
      fast,
      result ? toCallResult(result, heard()) : toolError(messageOf(error)),
    );
  }

  private finishFast(connection: McpConnection, fast: McpFastCall, result: CallToolResult): void {
    if (fast.finished) return;
    this.release(connection, fast);
    fast.respond({ jsonrpc: "2.0", id: fast.requestId, result });
  }

  /** A fast call leaves its connection's books (it is answered, cancelled or closed). */
  private release(connection: McpConnection, fast: McpFastCall): void {
    if (connection.fast.get(fast.requestId) !== fast) return;
    connection.fast.delete(fast.requestId);
    connection.waiting -= 1;
    connection.lastSeen = this.now();
    if (fast.call) fast.call.waiters -= 1;
    if (fast.wantsProgress) this.stopInforming(fast);
  }

  private hasRoots(connection: McpConnection): boolean {
    return connection.server.server.getClientCapabilities()?.roots !== undefined;
  }

  /**
   * B3: only the agent's own cancel withdraws the question; losing the connection does not, and
   * neither does a cancel (or a DELETE) while another request still listens for the same call.
   */
  withdraw(connection: McpConnection, call: WaitingCall, self: Waiter | McpFastCall): void {
    if (connection.quiet || this.closing) return;
    if (call.awaitedBesides(self)) return;
    call.cancel(
      connection.ended ? "the agent ended its MCP session" : "the agent cancelled the call",
    );
  }

  /**
   * B4: agents time out calls that take long (the SDK's default is a minute) unless progress
   * resets the clock; the stream's keep-alive covers read timeouts, this covers call timeouts.
   * Each waiting call that asked for progress beats once a period, on its own phase.
   */
  keepInformed(waiter: Waiter | McpFastCall): void {
    this.informed.add(waiter);
  }

  stopInforming(waiter: Waiter | McpFastCall): void {
    this.informed.delete(waiter);
  }

  /**
   * Runs the call; after a restart the same call still without a result is run again (B8): the
   * one its task names, else the first with the same tool and arguments.
   */
  private run(
    sessionId: string,
    name: string,
    args: unknown,
    signal: AbortSignal,
    waiting: WaitingCall,
    { callId, task }: { callId?: string; task?: boolean },
  ) {
    const left = this.beforeStartOf(sessionId).unfinished;
    let index: number;
    if (callId !== undefined) {
      index = left.findIndex((call) => call.callId === callId);
    } else {
      const wanted = canonicalJson(args);
      index = left.findIndex((call) => call.name === name && canonicalJson(call.input) === wanted);
    }
    const unfinished = index >= 0 ? left.splice(index, 1)[0] : undefined;
    const call = unfinished ?? { callId: randomId(MCP_CALL_PREFIX), name, input: args };
    waiting.callId = call.callId;
    this.deps.sessions.runExternalCallTo(sessionId, call, this.tools, signal, waiting, {
      resumed: unfinished !== undefined,
      task,
    });
  }

  /** Calls without a result can only come from before this start, so the log is read once. */
  private beforeStartOf(sessionId: string): BeforeStart {
    let before = this.beforeStart.get(sessionId);
    if (!before) {
      before = { unfinished: danglingCalls(this.deps.log.entriesAfter(sessionId, 0)) };
      this.beforeStart.set(sessionId, before);
    }
    return before;
  }

  /** What only the log holds of the session's tasks, read once per session (a miss is a lookup). */
  private loggedTasksOf(sessionId: string): LoggedTasks {
    const before = this.beforeStartOf(sessionId);
    before.tasks ??= loggedTasks(
      this.deps.log.entriesAfter(sessionId, 0),
      this.now() - TASK_KEEP_MS,
    );
    return before.tasks;
  }

  /**
   * tasks/list: the session's tasks, those made before this start included. Each is read back
   * from the log once, as tasks/get would: a waiting one is taken up again (B8).
   */
  private listedTasks(sessionId: string): AgentTask[] {
    const { madeAsTasks } = this.loggedTasksOf(sessionId);
    for (const taskId of madeAsTasks) {
      if (!this.tasks.get(taskId, sessionId)) this.restoreTask(sessionId, taskId);
      madeAsTasks.delete(taskId);
    }
    return this.tasks.listIn(sessionId);
  }

  /** B6: the agent's plangate session, by its client name and workspace root. */
  private sessionOf(connection: McpConnection, extra?: ToolExtra): Promise<string> {
    connection.session ??= this.resolveSession(connection, extra).then((sessionId) => {
      connection.sessionId = sessionId;
      return sessionId;
    });
    return connection.session;
  }

  private async resolveSession(connection: McpConnection, extra?: ToolExtra): Promise<string> {
    const client = this.clientOf(connection);
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

  private clientOf(connection: McpConnection): string {
    return clientNameOf(connection.server.server.getClientVersion()?.name);
  }

  /** The plangate session of this agent and root, if it has one that was not deleted. */
  private existingSession(client: string, root: string): string | undefined {
    const known = this.agents.sessionOf(client, root);
    return known !== undefined && this.deps.log.getSession(known) ? known : undefined;
  }

  private sessionFor(client: string, root: string): string {
    const known = this.existingSession(client, root);
    if (known !== undefined) return known;
    const session = this.deps.sessions.create({
      title: client,
      model: `${MCP_MODEL_PREFIX}${client}`,
      mode: "build",
    });
    this.agents.remember(client, root, session.id);
    this.inbox.startAt(session.id, session.lastSeq);
    return session.id;
  }

  private async rootOf(connection: McpConnection, extra?: ToolExtra): Promise<string> {
    // The fast path comes without a request to ask on only for agents that offer no roots.
    if (!extra || !this.hasRoots(connection)) return this.deps.workspace;
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
    this.tasks.expire();
    try {
      this.events.prune();
    } catch (error) {
      // R3: thrown from a timer it stopped the server; pruning waits for the next sweep, and
      // an outage of the store is logged by its health.
      if (!isStorageFailure(error)) console.error("plangate: could not prune MCP events:", error);
    }
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
    return (
      connection.calls.size === 0 && connection.fast.size === 0 && connection.openRequests === 0
    );
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
