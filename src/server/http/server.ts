import { randomBytes } from "node:crypto";
import { existsSync, realpathSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import fastifyStatic from "@fastify/static";
import fastifyWebsocket from "@fastify/websocket";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import {
  ACCESS_CHECK_PATH,
  MAX_FRAME_BYTES,
  type ModelInfo,
  type ModeName,
} from "../../protocol/index.ts";
import { type Clock, systemClock } from "../clock.ts";
import { InboxFeed } from "../inbox/inboxFeed.ts";
import { DEADLINE_LEASE_MS } from "../interactions/countdown.ts";
import type { InteractionRegistry } from "../interactions/port.ts";
import { createInteractionRegistry } from "../interactions/registry.ts";
import { McpBridge } from "../mcp/mcpBridge.ts";
import { MCP_PATH, registerMcpRoute } from "../mcp/mcpRoute.ts";
import type { ConfiguredModelCatalog } from "../models/catalog.ts";
import { providerIdOf, resolveModelChoice } from "../models/factory.ts";
import type { ModelProvider } from "../models/provider.ts";
import { createScriptedProvider, scriptedModelInfo } from "../models/scripted/load.ts";
import { projectRoot } from "../paths.ts";
import { NamedAccess } from "../people/namedAccess.ts";
import type { PermissionCheck } from "../permissions/decide.ts";
import { PermissionService } from "../permissions/service.ts";
import { wirePush } from "../push/wirePush.ts";
import { createSessionMaterialSource } from "../sessionContext/source.ts";
import { SessionManager } from "../sessions/sessionManager.ts";
import type { DatabaseLock } from "../store/databaseLock.ts";
import { randomId } from "../store/ids.ts";
import { CANCEL_CHANNEL, cancelPayload } from "../store/postgres/entryChannel.ts";
import type { EntryNotifications } from "../store/postgres/entryNotifications.ts";
import { LEASE_ROWS_KEPT_MS, takeLease } from "../store/postgres/leases.ts";
import { pgTurnLocks } from "../store/postgres/pgTurnLocks.ts";
import { markSharedWorkspace, refuseSplitWorkspace } from "../store/sharedWorkspace.ts";
import {
  type HealthOptions,
  isPostgresUrl,
  lockStore,
  openStore,
  type Store,
} from "../store/store.ts";
import { createTodoReminder } from "../todos/reminder.ts";
import { TodoService } from "../todos/todoService.ts";
import { removeAbandonedTempFiles } from "../tools/atomicWrite.ts";
import type { AnyToolContract } from "../tools/contract.ts";
import { defaultTools } from "../tools/defaultTools.ts";
import { ToolRegistry } from "../tools/registry.ts";
import { WsRouter } from "../ws/router.ts";
import { decideAccess, type RouteKind } from "./access.ts";
import { NOT_BUILT_PAGE } from "./auth.ts";
import { PageDocument } from "./pageDocument.ts";
import { checkBindHost } from "./reach.ts";
import { personOfRequest, rememberPerson } from "./requestPerson.ts";
import { noJsonSchemaCompilers } from "./schemaCompilers.ts";
import { SECURITY_HEADERS } from "./securityHeaders.ts";
import { setStaticHeaders } from "./staticHeaders.ts";

/**
 * R12: connections the kernel holds while the server is busy (Linux caps it at somaxconn).
 * Node's default of 511 drops the rest of a burst (10k agent calls at once, issue 15) to the
 * clients' SYN retries, a second or more later, or to their connect timeouts.
 */
const LISTEN_BACKLOG = 4096;

export interface ServerOptions {
  /** The repository the agent works in; file tools stay inside it. */
  workspace: string;
  /** SQLite file of the session log (its directory is created), or a `postgres://` URL (S1). */
  dbPath: string;
  /** 0 picks a free port. Default 0. */
  port?: number;
  /** Access token; a random 32-byte hex token when absent. */
  token?: string;
  /** B2: the token MCP agents are given, good on `/mcp` only; without it agents use `token`. */
  agentToken?: string;
  /** Model of new sessions, e.g. `scripted:demo` (the default) or `provider/model`. */
  model?: string;
  /** Mode of new sessions. Default `build`. */
  defaultMode?: ModeName;
  clock?: Clock;
  /**
   * Runs once the store is open and locked, before anything is written to it; a throw stops
   * the start (`--test-clock` refuses a store whose times are later than its clock).
   */
  checkStore?: (store: Store) => void;
  /** Auto-continue timings (A2). */
  timings?: { graceMs: number; deadlineMs: number };
  /** The built SPA. Default `<repo>/dist`. */
  distDir?: string;
  /** Makes the provider of a model reference; by default only scripted models exist. */
  providerFor?: (modelRef: string) => ModelProvider;
  /** The models offered to the page; by default the configured model alone. */
  listModels?: () => ModelInfo[] | Promise<ModelInfo[]>;
  /** M1/M2: the host's model catalog; `model.set` resolves against it and ListModels reads it. */
  catalog?: ConfiguredModelCatalog;
  /** Tools every session offers. Default: Read, Glob, Grep, AskUserQuestion. */
  tools?: AnyToolContract[];
  /** Default: the policy with the workspace's `.zcode/permissions.json` rules. */
  permissions?: PermissionCheck;
  /** Configuration's `permission.disallowedTools`: tools no mode may run. */
  disallowedTools?: string[];
  /** X1: how often an MCP call that waits for the user reports progress. Tests shorten it. */
  mcpProgressEveryMs?: number;
  /** Tests: the shortest poll interval MCP tasks ask of agents. */
  mcpTaskPollMs?: number;
  /** B4/B5: the MCP stream's keep-alive and how long an idle MCP session lives. Tests shorten them. */
  mcpTimings?: { keepAliveMs?: number; idleMs?: number };
  /** R12: how many calls one MCP session may have waiting at once. Tests lower it. */
  mcpMaxWaitingPerSession?: number;
  /** U3: where VAPID keys live. Default `<workspace>/.zcode`. */
  pushKeysDir?: string;
  /** U3, tests only: accept push subscriptions on a loopback http push service. */
  allowLoopbackPushEndpoints?: boolean;
  /**
   * R1: the address to listen on. Default `127.0.0.1`; anything beyond loopback needs
   * `allowRemote`. S2: servers behind one reverse proxy listen on 127.0.0.2, 127.0.0.3… with the
   * proxy's port, so the page's host, origin and token cookie are the same on every one.
   */
  host?: string;
  allowRemote?: boolean;
  /** `--public-url`: printed and pushed links use it; Host and Origin checks accept it. */
  publicUrl?: URL;
  /** R3: how the store's health logs and probes during an outage. Tests shorten and capture. */
  storageHealth?: HealthOptions;
}

export interface RunningServer {
  /** The URL to open, token included: `http://127.0.0.1:<port>/?token=<token>`. */
  url: string;
  /** The same through `--public-url`, when one is set. */
  publicUrl: string | undefined;
  port: number;
  token: string;
  sessions: SessionManager;
  interactions: InteractionRegistry;
  close(): Promise<void>;
}

/** R13's clean-up of abandoned temp files waits this long after the server listens. */
const TEMP_CLEANUP_AFTER_MS = 1000;

export const DEFAULT_TIMINGS = { graceMs: 60_000, deadlineMs: 300_000 };

/**
 * Starts plangate's protocol server on 127.0.0.1: the built page, `/ws`, the session log,
 * the interaction registry and the turn loop. Unfinished turns resume as soon as it listens.
 */
export async function createServer(options: ServerOptions): Promise<RunningServer> {
  const clock = options.clock ?? systemClock;
  const host = options.host ?? "127.0.0.1";
  checkBindHost(host, options.allowRemote ?? false);
  const publicUrl = options.publicUrl;
  const token = options.token ?? randomBytes(32).toString("hex");
  const workspace = realpathSync(options.workspace);
  const distDir = resolve(options.distDir ?? join(projectRoot, "dist"));
  const configuredModel = options.model ?? "scripted:demo";

  const providers = new Map<string, ModelProvider>();
  const makeProvider =
    options.providerFor ?? ((ref: string) => createScriptedProvider(ref, process.cwd()));
  const providerFor = (ref: string) => {
    let provider = providers.get(ref);
    if (!provider) {
      provider = makeProvider(ref);
      providers.set(ref, provider);
    }
    return provider;
  };
  // Made now so a broken scenario or model setup stops the start with its own message.
  const defaultModel = providerFor(configuredModel).ref;
  providers.set(defaultModel, providerFor(configuredModel));
  const fallbackInfo: ModelInfo = scriptedModelInfo(configuredModel, process.cwd()) ?? {
    ref: defaultModel,
    provider: defaultModel.split("/")[0] ?? defaultModel,
    label: defaultModel,
  };
  const listModels = options.listModels ?? (() => [fallbackInfo]);

  refuseSplitWorkspace(workspace, options.dbPath);
  // R11 before R13: a file is locked before it is opened, let alone changed; a PostgreSQL
  // database is locked on the store's own connection.
  const fileLock = isPostgresUrl(options.dbPath) ? undefined : lockStore(options.dbPath);
  let store: Store | undefined;
  let lock: DatabaseLock;
  try {
    store = openStore(options.dbPath, clock, {
      checkpointOffThread: true,
      ...(options.storageHealth ? { health: options.storageHealth } : {}),
    });
    lock = fileLock ?? lockStore(options.dbPath, store);
  } catch (error) {
    store?.close();
    fileLock?.release();
    throw error;
  }
  try {
    options.checkStore?.(store);
    if (store.backend === "postgres") markSharedWorkspace(workspace, store.location);
  } catch (error) {
    store.close();
    lock.release();
    throw error;
  }
  const db = store.db;
  const health = store.health;
  const log = store.log;
  const settings = store.settings;
  // S2: on PostgreSQL other servers write to the same sessions; this one follows them.
  const shared = store.backend === "postgres";
  const serverId = randomId("srv_", 12);
  if (shared) log.follow();
  const interactions = createInteractionRegistry({
    append: (sessionId, entry) => log.append(sessionId, entry),
    clock,
    settings: () => settings.get(),
    timings: options.timings ?? DEFAULT_TIMINGS,
    newId: () => randomId("int_", 12),
    ...(shared
      ? {
          takeDeadline: (interactionId: string) =>
            takeLease(db, {
              key: interactionId,
              holder: serverId,
              now: clock.now(),
              leaseMs: DEADLINE_LEASE_MS,
            }),
        }
      : { batch: (work: () => void) => log.batch(work) }),
  });
  // Before anything else listens: the registry is up to date when the entry is broadcast.
  log.subscribe((sessionId, stored, origin) => {
    if (origin === "elsewhere") interactions.observe(sessionId, stored);
  });
  const todos = new TodoService(store.todos, log);
  const otherSessions = createSessionMaterialSource(log, todos);
  const modelOf = (sessionId: string) => log.requireSession(sessionId).model;
  const permissionService = new PermissionService({
    workspace,
    ...(options.disallowedTools ? { disallowedTools: options.disallowedTools } : {}),
  });
  const sessions = new SessionManager({
    log,
    interactions,
    tools: new ToolRegistry(options.tools ?? defaultTools()),
    providerFor,
    permissions: options.permissions ?? permissionService.check,
    rememberAllow: (tool, input) => permissionService.allowAlways(tool, input),
    workspace,
    defaultModel,
    defaultMode: options.defaultMode ?? "build",
    onDelta: (sessionId, text) => router.sendDelta(sessionId, text),
    onTurnStopped: (sessionId, code) => router.turnStopped(sessionId, code),
    ...(shared
      ? {
          turnLocks: pgTurnLocks(db),
          cancelElsewhere: (sessionId: string, reason: string) => {
            db.get("SELECT pg_notify(?, ?)", [
              CANCEL_CHANNEL,
              cancelPayload({ sessionId, reason }),
            ]);
          },
        }
      : {}),
    todoReminder: createTodoReminder(todos),
    contextFor: (sessionId) => ({
      todos: todos.forSession(sessionId),
      otherSessions,
      currentModel: () => modelOf(sessionId),
      // A scripted model only replays its scenario; it cannot extract anything.
      helperModel: () => {
        const ref = modelOf(sessionId);
        return providerIdOf(ref) === "scripted" ? undefined : providerFor(ref);
      },
      ...(options.catalog ? { catalog: options.catalog } : {}),
      hiddenFrom: permissionService.hiddenFrom,
      secrets: () =>
        plangateSecrets(
          options.agentToken === undefined ? [token] : [token, options.agentToken],
          options.catalog,
        ),
    }),
  });
  const catalog = options.catalog;
  const inbox = new InboxFeed({ log, interactions });
  const router = new WsRouter({
    log,
    sessions,
    interactions,
    settings,
    clock,
    listModels,
    timings: options.timings ?? DEFAULT_TIMINGS,
    inbox,
    storage: health,
    ...(catalog
      ? {
          chooseModel: (sessionId: string, ref: string) =>
            resolveModelChoice(ref, {
              catalog,
              currentProvider: providerIdOf(modelOf(sessionId)),
              baseDir: workspace,
              scenarioFilesWithin: workspace,
            }),
        }
      : {}),
  });
  // R3: turn ends the store refused are written once it takes writes again.
  health.subscribe((now) => {
    if (now.state === "ok") sessions.writeUnsavedEnds();
  });

  // S3: a token revoked from the command line closes that person's sockets at once.
  const people = new NamedAccess({ db, onRevoked: (person) => router.closePerson(person) });

  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    schemaController: noJsonSchemaCompilers,
  });
  let port = options.port ?? 0;
  // The plugin's own hooks must run first: they close the socket of a refused upgrade.
  await app.register(fastifyWebsocket, { options: { maxPayload: MAX_FRAME_BYTES } });
  app.addHook("onRequest", async (request, reply) =>
    checkAccess(request, reply, {
      token,
      agentToken: options.agentToken,
      port: () => port,
      publicUrl,
      personOf: (given) => people.personOf(given),
    }),
  );
  app.get("/ws", { websocket: true }, (socket, request) =>
    router.accept(socket, personOfRequest(request.raw)),
  );
  // W8: a browser cannot read why an upgrade failed; the page asks here (the check above decides).
  app.get(ACCESS_CHECK_PATH, (_request, reply) =>
    reply.code(204).header("cache-control", "no-store").send(),
  );
  const mcp = new McpBridge({
    sessions,
    log,
    db,
    workspace,
    ...(options.mcpProgressEveryMs ? { progressEveryMs: options.mcpProgressEveryMs } : {}),
    ...(options.mcpTaskPollMs ? { taskPollMs: options.mcpTaskPollMs } : {}),
    ...options.mcpTimings,
    ...(options.mcpMaxWaitingPerSession
      ? { maxWaitingPerSession: options.mcpMaxWaitingPerSession }
      : {}),
  });
  await registerMcpRoute(app, mcp);
  // U3 (web push)
  const push = wirePush(app, {
    keysDir: options.pushKeysDir ?? join(workspace, ".zcode"),
    db,
    log,
    inbox,
    interactions,
    clock,
    baseUrl: () => publicUrl?.origin ?? `http://127.0.0.1:${port}`,
    allowLoopbackEndpoints: options.allowLoopbackPushEndpoints ?? false,
    // S2: every server hears the same inbox change; one of them pushes it.
    ...(shared
      ? {
          takePush: (key: string) =>
            takeLease(db, {
              key,
              holder: serverId,
              now: clock.now(),
              leaseMs: LEASE_ROWS_KEPT_MS,
            }),
        }
      : {}),
  });
  const built = existsSync(join(distDir, "index.html"));
  const page = new PageDocument(distDir);
  const sendPage = (request: FastifyRequest, reply: FastifyReply) =>
    page.send(request, reply) ??
    reply.code(503).type("text/plain; charset=utf-8").send(NOT_BUILT_PAGE);
  if (built) {
    app.get("/", sendPage);
    // The build writes .br and .gz beside each asset; the plugin picks one by Accept-Encoding.
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: true,
      preCompressed: true,
      cacheControl: false,
      setHeaders: setStaticHeaders,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (!built) return reply.code(503).type("text/plain; charset=utf-8").send(NOT_BUILT_PAGE);
    if (request.method !== "GET" || !(request.headers.accept ?? "").includes("text/html")) {
      return reply.code(404).type("text/plain; charset=utf-8").send("Not found\n");
    }
    // SPA fallback: client-side routes load the page, which routes itself.
    return sendPage(request, reply);
  });

  let following: EntryNotifications | undefined;
  try {
    // Imported only on PostgreSQL: `pg` would cost every start on SQLite several ms to load.
    const notifications = shared ? await import("../store/postgres/entryNotifications.ts") : null;
    await app.listen({ host, port, backlog: LISTEN_BACKLOG });
    port = (app.server.address() as AddressInfo).port;
    // In the same tick as listening: no frame can be handled before sessions are restored.
    sessions.start();
    lock.recordPort(port);
    if (notifications) {
      following = await notifications.listenForEntries(options.dbPath, {
        onEntry: (notice) => log.heard(notice.sessionId, notice.seq),
        onGap: () => {
          // R3: PostgreSQL answers again; the store may take writes before anyone tries one.
          health.recheck();
          log.catchUpAll();
        },
        onCancel: ({ sessionId, reason }) => sessions.cancelAskedElsewhere(sessionId, reason),
        onSessionChange: (notice) => log.sessionChangedElsewhere(notice),
        onTrouble: (error, again) => (again ? health.failedAgain(error) : health.failed(error)),
      });
      // What others wrote between reading the sessions and listening.
      log.catchUpAll();
    }
  } catch (error) {
    await following?.close();
    people.close();
    router.close();
    await mcp.close();
    await sessions.close();
    await app.close();
    store.close();
    lock.release();
    throw error;
  }
  // R13: in the background, after a restart's first page, so a large workspace delays neither.
  let cleanup: Promise<unknown> | undefined;
  const cleanupLater = setTimeout(() => {
    cleanup = removeAbandonedTempFiles(workspace).catch((error: unknown) => {
      console.warn(`plangate: could not clean up temp files: ${(error as Error).message}`);
    });
  }, TEMP_CLEANUP_AFTER_MS);

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    publicUrl: publicUrl ? `${publicUrl.origin}/?token=${token}` : undefined,
    port,
    token,
    sessions,
    interactions,
    close() {
      closing ??= (async () => {
        await following?.close();
        people.close();
        router.close();
        push.close();
        inbox.close();
        await mcp.close();
        await sessions.close();
        await app.close();
        clearTimeout(cleanupLater);
        await cleanup;
        store.close();
        lock.release();
      })();
      return closing;
    },
  };
}

/** R9: the values no tool may return: the access and agent tokens and every model key plangate can use. */
async function plangateSecrets(
  tokens: string[],
  catalog: ConfiguredModelCatalog | undefined,
): Promise<string[]> {
  const secrets = [...tokens];
  for (const [name, value] of Object.entries(process.env)) {
    if (/API_KEY$/i.test(name) && value) secrets.push(value);
  }
  const setup = await catalog?.load().catch(() => undefined);
  for (const connection of setup?.connections.values() ?? []) {
    if (connection.apiKey) secrets.push(connection.apiKey);
  }
  return secrets;
}

/** R7: the route the router matched decides, never the raw spelling of the path. */
function routeKind(request: FastifyRequest): RouteKind {
  const route = request.routeOptions.url;
  if (route === MCP_PATH) return "agent";
  if (route === "/ws") return "socket";
  return "page";
}

/** A header Node may hand over as a list (one it does not know to join). */
const oneHeader = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value[0] : value;

function checkAccess(
  request: FastifyRequest,
  reply: FastifyReply,
  access: {
    token: string;
    agentToken: string | undefined;
    port: () => number;
    publicUrl: URL | undefined;
    personOf(token: string): string | undefined;
  },
): FastifyReply | undefined {
  reply.headers(SECURITY_HEADERS);
  const { headers } = request;
  const decision = decideAccess(
    {
      method: request.method,
      url: request.url,
      route: routeKind(request),
      headers: {
        host: headers.host,
        origin: headers.origin,
        cookie: headers.cookie,
        authorization: headers.authorization,
        upgrade: headers.upgrade,
        "sec-fetch-dest": oneHeader(headers["sec-fetch-dest"]),
        "sec-fetch-site": oneHeader(headers["sec-fetch-site"]),
      },
    },
    {
      token: access.token,
      agentToken: access.agentToken,
      port: access.port(),
      publicUrl: access.publicUrl,
      personOf: access.personOf,
    },
  );
  switch (decision.type) {
    case "allow":
      if (decision.person !== undefined) rememberPerson(request.raw, decision.person);
      return undefined;
    case "refuse":
      if (decision.challenge !== undefined) reply.header("www-authenticate", decision.challenge);
      return reply
        .code(decision.status)
        .type("text/plain; charset=utf-8")
        .header("cache-control", "no-store")
        .send(decision.body);
    case "redirect":
      reply.header("set-cookie", decision.setCookie);
      return reply.redirect(decision.location, 302);
  }
}
