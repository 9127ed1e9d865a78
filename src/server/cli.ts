import { loadOrCreateAgentToken } from "./accessToken.ts";
import { buildPageIfStale } from "./buildPage.ts";
import { CliError, type CliOptions, DEFAULT_PORT, parseCliOptions, USAGE } from "./cliOptions.ts";
import type { Clock } from "./clock.ts";
import { accessTokenFor, hostModelsFor, serverOptionsFor } from "./hostOptions.ts";
import { isLoopbackHost, remoteBindWarning } from "./http/reach.ts";
import { createServer, type RunningServer } from "./http/server.ts";
import type { HostModels } from "./models/hostModels.ts";
import { projectRoot } from "./paths.ts";
import { isPostgresUrl, redactUrl, type Store } from "./store/store.ts";
import { clockSteppedBy, refuseStartBeforeLog } from "./testClock.ts";
import { runTokenCommand, TOKEN_USAGE } from "./tokenCommand.ts";

async function listen(
  options: CliOptions,
  models: HostModels,
  clock: Clock | undefined,
  agentToken: string,
): Promise<RunningServer> {
  const testClockStart = options.testClockStart;
  const start = (port: number) =>
    createServer({
      ...serverOptionsFor(options, models, port),
      agentToken,
      ...(clock ? { clock } : {}),
      ...(testClockStart === undefined
        ? {}
        : { checkStore: (store: Store) => refuseStartBeforeLog(store.log, testClockStart) }),
    });
  try {
    return await start(options.port ?? DEFAULT_PORT);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    if (options.port !== undefined) {
      throw new CliError(
        `Port ${options.port} is already in use. Choose another with --port, or --port 0 for any free port.`,
      );
    }
    return start(0);
  }
}

/** Tests only: a clock that only the parent process moves, over IPC (never over the network). */
function testClockFor(options: CliOptions): Clock | undefined {
  if (options.testClockStart === undefined) return undefined;
  try {
    return clockSteppedBy(process, options.testClockStart);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

/**
 * X1: what an agent is configured with, printed under the page's URL (README: Agents over MCP).
 * Its token opens `/mcp` only (B2), never the page's socket where the agent's cards are answered.
 */
function mcpHint(pageUrl: string, agentToken: string): string {
  return `Agents over MCP: ${new URL("/mcp", pageUrl).href} with the header "Authorization: Bearer ${agentToken}" (README: Agents over MCP)`;
}

async function main(): Promise<void> {
  if (isTokenCommand) {
    runTokenCommand(process.argv.slice(3), process.cwd(), (line) => console.log(line));
    return;
  }
  const options = parseCliOptions(process.argv.slice(2), process.cwd());
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (options.build) {
    try {
      if ((await buildPageIfStale(projectRoot)) === "built")
        console.log("plangate: built the page into dist/");
    } catch (error) {
      console.error(
        `plangate: could not build the page (${(error as Error).message}); serving dist/ as it is.`,
      );
    }
  }
  const clock = testClockFor(options);
  const models = await hostModelsFor(options);
  const access = accessTokenFor(options);
  const agentToken = loadOrCreateAgentToken(options.workspace).token;
  const server = await listen({ ...options, token: access.token }, models, clock, agentToken);
  if (access.note) console.log(`plangate: ${access.note}`);
  if (isPostgresUrl(options.dbPath)) {
    console.log(`plangate: sessions are kept in PostgreSQL at ${redactUrl(options.dbPath)}`);
  }
  console.log(`plangate is serving ${options.workspace} (model ${models.model}). Open this URL:`);
  if (server.publicUrl) {
    console.log(server.publicUrl);
    console.log("On this machine:");
  }
  console.log(server.url);
  console.log(mcpHint(server.url, agentToken));
  if (!isLoopbackHost(options.host))
    console.warn(`plangate: ${remoteBindWarning(options.host, server.port, options.publicUrl)}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`plangate: ${signal}, shutting down`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("plangate: error while shutting down:", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

const isTokenCommand = process.argv[2] === "token";

main().catch((error: unknown) => {
  if (error instanceof CliError) {
    console.error(`plangate: ${error.message}\n\n${isTokenCommand ? TOKEN_USAGE : USAGE}`);
  } else {
    console.error(`plangate: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exit(1);
});
