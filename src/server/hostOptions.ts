import { loadOrCreateAccessToken } from "./accessToken.ts";
import type { CliOptions } from "./cliOptions.ts";
import type { ServerOptions } from "./http/server.ts";
import { type HostModels, setUpHostModels } from "./models/hostModels.ts";

/** The model catalog and default model the command line asks for; a warning is printed. */
export async function hostModelsFor(options: CliOptions): Promise<HostModels> {
  const models = await setUpHostModels({
    configPath: options.config,
    workspace: options.workspace,
    env: process.env,
    model: options.model,
    cwd: process.cwd(),
  });
  if (models.warning) console.warn(`plangate: ${models.warning}`);
  return models;
}

/** The server `npm start` and `npm run dev` run, from the command line's options. */
export function serverOptionsFor(
  options: CliOptions,
  models: HostModels,
  port: number,
): ServerOptions {
  return {
    workspace: options.workspace,
    dbPath: options.dbPath,
    port,
    model: models.model,
    catalog: models.catalog,
    providerFor: (ref) => models.providerFor(ref),
    listModels: () => models.listModels(),
    defaultMode: options.mode,
    timings: { graceMs: options.graceMs, deadlineMs: options.deadlineMs },
    host: options.host,
    allowRemote: options.allowRemote,
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.token !== undefined ? { token: options.token } : {}),
    ...(models.disallowedTools.length > 0 ? { disallowedTools: [...models.disallowedTools] } : {}),
  };
}

/**
 * W8: `--token` for this run, else the workspace's stored token (made on first start, replaced
 * by `--rotate-token`). The line to print says where the token came from.
 */
export function accessTokenFor(options: CliOptions): { token: string; note: string | null } {
  if (options.token !== undefined) return { token: options.token, note: null };
  const stored = loadOrCreateAccessToken(options.workspace, { rotate: options.rotateToken });
  switch (stored.source) {
    case "created":
      return { token: stored.token, note: "made an access token, kept in .zcode/access-token" };
    case "rotated":
      return {
        token: stored.token,
        note: "made a new access token: pages opened with the old one need the URL below",
      };
    case "stored":
      return { token: stored.token, note: null };
  }
}
