import { resolve } from "node:path";
import { createServer as createViteServer } from "vite";
import { CliError, parseCliOptions, USAGE } from "./cliOptions.ts";
import { accessTokenFor, hostModelsFor, serverOptionsFor } from "./hostOptions.ts";
import { tokenCookieName } from "./http/auth.ts";
import { createServer } from "./http/server.ts";
import { projectRoot as root } from "./paths.ts";

/**
 * `npm run dev`: the protocol server on a free port behind Vite's dev server (hot reload).
 * Vite forwards `/ws` and adds the token cookie and the server's own origin on the way, so
 * the page needs no token in development. Vite listens on --port (default 5173).
 */
async function main(): Promise<void> {
  const options = parseCliOptions(process.argv.slice(2), process.cwd());
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  // Not silently on real time: the test clock is wired in the CLI only.
  if (options.testClockStart !== undefined)
    throw new CliError("--test-clock runs under npm start only.");
  const models = await hostModelsFor(options);
  const { token } = accessTokenFor(options);
  const server = await createServer(serverOptionsFor({ ...options, token }, models, 0));
  const backend = `127.0.0.1:${server.port}`;
  const vite = await createViteServer({
    root,
    configFile: resolve(root, "vite.config.ts"),
    server: {
      host: "127.0.0.1",
      port: options.port ?? 5173,
      proxy: {
        "/ws": {
          target: `ws://${backend}`,
          ws: true,
          changeOrigin: true,
          configure: (proxy) => {
            proxy.on("proxyReqWs", (request) => {
              request.setHeader("cookie", `${tokenCookieName(server.port)}=${server.token}`);
              request.setHeader("origin", `http://${backend}`);
            });
          },
        },
      },
    },
  });
  await vite.listen();
  const url = vite.resolvedUrls?.local[0] ?? `http://127.0.0.1:${options.port ?? 5173}/`;
  console.log(`plangate dev: Vite with hot reload, protocol server on ${backend}. Open this URL:`);
  console.log(url);

  const stop = () => {
    Promise.allSettled([vite.close(), server.close()]).then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`plangate dev: ${message}${error instanceof CliError ? `\n\n${USAGE}` : ""}`);
  process.exit(1);
});
