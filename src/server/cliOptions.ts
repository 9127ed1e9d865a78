import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ModeName } from "../protocol/index.ts";
import { checkBindHost, parsePublicUrl, ReachError } from "./http/reach.ts";
import { DEFAULT_TIMINGS } from "./http/server.ts";
import { isPostgresUrl, redactUrl } from "./store/store.ts";

export const DEFAULT_PORT = 7420;

export interface CliOptions {
  /** Undefined when not given: 7420, or any free port when 7420 is taken. */
  port: number | undefined;
  workspace: string;
  dbPath: string;
  /** Undefined when not given: the configured default model, else scripted:demo. */
  model: string | undefined;
  /** `--config`: the model config file; undefined means `<workspace>/.zcode/plangate.json`. */
  config: string | undefined;
  mode: ModeName;
  /** `--token`: overrides the workspace's stored token for this run (W8). */
  token: string | undefined;
  /** `--rotate-token`: replace the stored token before starting (W8). */
  rotateToken: boolean;
  graceMs: number;
  deadlineMs: number;
  /** `--host`: where to listen; 127.0.0.1 unless `--allow-remote` says otherwise. */
  host: string;
  allowRemote: boolean;
  /** `--public-url`: the origin a phone opens through a tunnel or an HTTPS proxy. */
  publicUrl: URL | undefined;
  /** Build the page first when it is missing or older than its sources. */
  build: boolean;
  /** `--test-clock`: tests only; the server's clock starts here (epoch ms) and moves when stepped. */
  testClockStart: number | undefined;
  help: boolean;
}

export class CliError extends Error {}

export const USAGE = `Usage: npm start -- [options]

  --port N          port on 127.0.0.1 (default ${DEFAULT_PORT}, or a free one if ${DEFAULT_PORT} is taken; 0 = any free port)
  --workspace DIR   the repository the agent works in (default: current directory)
  --db FILE|URL     session database: an SQLite file (default: <workspace>/.zcode/plangate.db)
                    or a PostgreSQL URL, postgres://user:password@host:5432/database
  --model REF       model of new sessions, e.g. openai/gpt-5.4 (default: the config's defaultModel or
                    PLANGATE_MODEL, else scripted:demo; scripted:<file.yaml> plays a scenario)
  --config FILE     model providers and models (default: <workspace>/.zcode/plangate.json if present)
  --mode NAME       mode of new sessions: plan, build, edit, yolo or auto (default: build)
  --token T         access token for this run (default: the workspace's own, kept in
                    <workspace>/.zcode/access-token and printed in the URL)
  --rotate-token    make a new stored access token first; tabs opened with the old one must
                    open the newly printed URL
  --public-url URL  the address a phone opens plangate at, e.g. https://laptop.tailnet.ts.net
                    (tailscale serve) or http://localhost:7420 (an SSH tunnel); printed and
                    notification links use it, and its Host and Origin are accepted
  --host ADDR       address to listen on (default 127.0.0.1); anything beyond loopback also
                    needs --allow-remote and --public-url, and HTTPS in front
  --allow-remote    really listen beyond loopback (prefer an SSH tunnel or tailscale serve)
  --grace-ms N      silent wait before an unanswered question shows its countdown (default ${DEFAULT_TIMINGS.graceMs})
  --deadline-ms N   when an unanswered question continues on its own (default ${DEFAULT_TIMINGS.deadlineMs})
  --no-build        serve dist/ as it is, without rebuilding the page
  --test-clock MS   tests only: the server's clock starts at MS (epoch ms) and stands still until
                    the process that started plangate steps it over its IPC channel
  --help            show this help

  npm start -- token issue|revoke|list …   named access tokens, one per person (see token --help)
`;

/** S1: a postgres:// URL is used as given; anything else is an SQLite file path. */
export function databaseOf(given: string | undefined, cwd: string, workspace: string): string {
  if (given === undefined || given === "") return join(workspace, ".zcode", "plangate.db");
  if (isPostgresUrl(given)) {
    try {
      new URL(given);
    } catch {
      throw new CliError(`--db ${redactUrl(given)} is not a valid PostgreSQL URL.`);
    }
    return given;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(given)) {
    throw new CliError(`--db takes an SQLite file or a postgres:// URL, not ${redactUrl(given)}.`);
  }
  return resolve(cwd, given);
}

export function parseCliOptions(argv: string[], cwd: string): CliOptions {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const workspace = resolve(cwd, values.workspace ?? ".");
  const mode = ModeName.safeParse(values.mode ?? "build");
  if (!mode.success) {
    throw new CliError(
      `--mode must be one of ${ModeName.options.join(", ")}, not "${values.mode}".`,
    );
  }
  const graceMs = integer("--grace-ms", values["grace-ms"], 0) ?? DEFAULT_TIMINGS.graceMs;
  const deadlineMs =
    integer("--deadline-ms", values["deadline-ms"], 1) ?? DEFAULT_TIMINGS.deadlineMs;
  if (graceMs > deadlineMs) throw new CliError("--grace-ms cannot be longer than --deadline-ms.");
  if (values.token !== undefined && values.token.trim() === "")
    throw new CliError("--token cannot be empty.");
  if (values.token !== undefined && values["rotate-token"])
    throw new CliError("--token and --rotate-token cannot be used together.");
  const host = values.host ?? "127.0.0.1";
  const allowRemote = values["allow-remote"] ?? false;
  let publicUrl: URL | undefined;
  try {
    publicUrl =
      values["public-url"] === undefined ? undefined : parsePublicUrl(values["public-url"]);
    checkBindHost(host, allowRemote);
  } catch (error) {
    if (error instanceof ReachError) throw new CliError(error.message);
    throw error;
  }
  if (allowRemote && publicUrl === undefined)
    throw new CliError(
      "--allow-remote needs --public-url: the Host and Origin checks accept only the address they are told the page is opened at.",
    );
  return {
    port: integer("--port", values.port, 0, 65_535),
    workspace,
    dbPath: databaseOf(values.db, cwd, workspace),
    model: values.model,
    config: values.config === undefined ? undefined : resolve(cwd, values.config),
    mode: mode.data,
    token: values.token,
    rotateToken: values["rotate-token"] ?? false,
    graceMs,
    deadlineMs,
    host,
    allowRemote,
    publicUrl,
    build: !values["no-build"],
    testClockStart: integer("--test-clock", values["test-clock"], 0),
    help: values.help ?? false,
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: "string" },
      workspace: { type: "string" },
      db: { type: "string" },
      model: { type: "string" },
      config: { type: "string" },
      mode: { type: "string" },
      token: { type: "string" },
      "rotate-token": { type: "boolean" },
      "grace-ms": { type: "string" },
      "deadline-ms": { type: "string" },
      "public-url": { type: "string" },
      host: { type: "string" },
      "allow-remote": { type: "boolean" },
      "no-build": { type: "boolean" },
      "test-clock": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

function integer(
  flag: string,
  text: string | undefined,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
) {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
    throw new CliError(`${flag} must be a whole number from ${min} to ${max}, not "${text}".`);
  }
  return value;
}
