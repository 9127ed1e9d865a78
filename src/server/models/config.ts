import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { CatalogEntry, ModelSetup, ProviderConnection } from "./catalog.ts";

/** The keyless provider; its model ids are scenario names (`scripted/demo`). */
export const SCRIPTED_PROVIDER_ID = "scripted";

export type Env = Readonly<Record<string, string | undefined>>;

const idPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const ModelConfigSchema = z
  .strictObject({
    id: z
      .string()
      .min(1)
      .refine((id) => !/[\s$]/.test(id), "a model id may not contain spaces or '$'"),
    name: z.string().min(1).optional(),
    contextWindow: z.number().int().positive().optional(),
    reasoningLevels: z
      .array(z.string().regex(idPattern, "letters, digits, '.', '_' or '-'"))
      .optional(),
    defaultReasoningLevel: z.string().optional(),
    disabled: z.string().min(1).optional(),
  })
  .refine(
    (model) =>
      model.defaultReasoningLevel === undefined ||
      (model.reasoningLevels ?? []).includes(model.defaultReasoningLevel),
    {
      message: "defaultReasoningLevel must be one of reasoningLevels",
      path: ["defaultReasoningLevel"],
    },
  );

const ProviderConfigSchema = z.strictObject({
  kind: z.enum(["openai", "anthropic"]),
  name: z.string().min(1).optional(),
  baseURL: z.url().optional(),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name")
    .optional(),
  apiKey: z.string().min(1).optional(),
  models: z
    .array(ModelConfigSchema)
    .min(1)
    .refine(
      (models) => new Set(models.map((m) => m.id.toLowerCase())).size === models.length,
      "model ids must be unique within a provider",
    ),
});

const ProviderIdSchema = z
  .string()
  .regex(idPattern, "a provider id is letters, digits, '.', '_' or '-'")
  .refine(
    (id) => id.toLowerCase() !== SCRIPTED_PROVIDER_ID,
    "the provider id 'scripted' is reserved for the built-in scripted models",
  );

/** `<workspace>/.zcode/plangate.json` or the file given with `--config`. */
export const PlangateConfigSchema = z.strictObject({
  providers: z
    .record(ProviderIdSchema, ProviderConfigSchema)
    .refine(
      (providers) =>
        new Set(Object.keys(providers).map((id) => id.toLowerCase())).size ===
        Object.keys(providers).length,
      "provider ids must differ in more than case",
    )
    // A file may hold only permission settings; keys in the environment then give providers.
    .optional(),
  defaultModel: z
    .string()
    .regex(/^[^/\s]+\/\S+$/, "expected provider/model")
    .optional(),
  /** Q5: tools no permission mode may run, read once at start. */
  permission: z
    .strictObject({ disallowedTools: z.array(z.string().min(1)).max(200).optional() })
    .optional(),
});
export type PlangateConfig = z.infer<typeof PlangateConfigSchema>;
type ProviderConfig = NonNullable<PlangateConfig["providers"]>[string];

/** A configuration that cannot be used; the message says where and why, never a key. */
export class ModelConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelConfigError";
  }
}

export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";
export const DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com";
/** Used when only a key is in the environment and PLANGATE_MODEL names no model. */
export const DEFAULT_OPENAI_MODEL = "gpt-5.4";
export const DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-5-5";

const KIND_DEFAULTS = {
  openai: {
    keyEnv: "OPENAI_API_KEY",
    baseURLEnv: "OPENAI_BASE_URL",
    baseURL: DEFAULT_OPENAI_BASE_URL,
    providerName: "OpenAI",
    model: DEFAULT_OPENAI_MODEL,
  },
  anthropic: {
    keyEnv: "ANTHROPIC_API_KEY",
    baseURLEnv: "ANTHROPIC_BASE_URL",
    baseURL: DEFAULT_ANTHROPIC_BASE_URL,
    providerName: "Anthropic",
    model: DEFAULT_ANTHROPIC_MODEL,
  },
} as const;

export function defaultConfigPath(workspace: string): string {
  return join(workspace, ".zcode", "plangate.json");
}

/** Validates the text of a config file; `source` names the file in error messages. */
export function parseModelConfig(text: string, source: string): PlangateConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ModelConfigError(`${source} is not valid JSON: ${reason}`);
  }
  const parsed = PlangateConfigSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length === 0 ? "(top level)" : issue.path.map(String).join(".");
    // A bad record key carries its reason one level down.
    const reason = issue.code === "invalid_key" ? issue.issues[0]?.message : undefined;
    return `  ${where}: ${reason ?? issue.message}`;
  });
  throw new ModelConfigError(
    `${source} is not a valid plangate model config:\n${problems.join("\n")}`,
  );
}

/**
 * Reads the config file. A missing file at the default place means "no file"; a missing
 * file that was asked for explicitly (`--config`) is an error.
 */
export async function readModelConfigFile(
  path: string,
  options: { required: boolean },
): Promise<PlangateConfig | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (!options.required && (error as NodeJS.ErrnoException).code === "ENOENT") return null;
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ModelConfigError(`cannot read the model config ${path}: ${reason}`);
  }
  return parseModelConfig(text, path);
}

/**
 * Turns a parsed config (or none) plus the environment into catalog entries and
 * connections. Without a file, a key in the environment gives that vendor a provider.
 */
export function buildModelSetup(config: PlangateConfig | null, env: Env): ModelSetup {
  const defaultModel = nonEmpty(env.PLANGATE_MODEL) ?? config?.defaultModel;
  const disallowedTools = config?.permission?.disallowedTools ?? [];
  const providers = config?.providers ?? synthesiseProviders(env, defaultModel);
  const entries: CatalogEntry[] = [];
  const connections = new Map<string, ProviderConnection>();
  for (const [providerId, provider] of Object.entries(providers)) {
    const { connection, missingKey } = connect(providerId, provider, env);
    connections.set(providerId, connection);
    const providerName = provider.name ?? providerId;
    for (const model of provider.models) {
      const disabled = model.disabled ?? missingKey;
      entries.push({
        ref: `${providerId}/${model.id}`,
        providerId,
        providerName,
        kind: provider.kind,
        modelId: model.id,
        label: model.name ?? model.id,
        reasoningLevels: model.reasoningLevels ?? [],
        ...(model.contextWindow === undefined ? {} : { contextWindow: model.contextWindow }),
        ...(model.defaultReasoningLevel === undefined
          ? {}
          : { defaultReasoningLevel: model.defaultReasoningLevel }),
        ...(disabled === undefined ? {} : { disabled }),
      });
    }
  }
  return { entries, connections, defaultModel, disallowedTools };
}

function synthesiseProviders(
  env: Env,
  defaultModel: string | undefined,
): Record<string, ProviderConfig> {
  const providers: Record<string, ProviderConfig> = {};
  for (const kind of ["openai", "anthropic"] as const) {
    const defaults = KIND_DEFAULTS[kind];
    if (nonEmpty(env[defaults.keyEnv]) === undefined) continue;
    const prefix = `${kind}/`;
    const named = defaultModel?.toLowerCase().startsWith(prefix)
      ? defaultModel.slice(prefix.length).split("$")[0]
      : undefined;
    providers[kind] = {
      kind,
      name: defaults.providerName,
      models: [{ id: named || defaults.model }],
    };
  }
  return providers;
}

function connect(
  providerId: string,
  provider: ProviderConfig,
  env: Env,
): { connection: ProviderConnection; missingKey: string | undefined } {
  const defaults = KIND_DEFAULTS[provider.kind];
  // The vendor's key variable is only read for the vendor's endpoint (or the URL paired
  // with it in the environment), so it never travels to a server named in the file.
  const keyEnv =
    provider.apiKeyEnv ?? (provider.baseURL === undefined ? defaults.keyEnv : undefined);
  const apiKey = provider.apiKey ?? (keyEnv === undefined ? undefined : nonEmpty(env[keyEnv]));
  const customURL = provider.baseURL ?? nonEmpty(env[defaults.baseURLEnv]);
  const connection: ProviderConnection = {
    providerId,
    kind: provider.kind,
    baseURL: customURL ?? defaults.baseURL,
    apiKey,
  };
  // A self-hosted server usually needs no key; the vendor's own endpoint always does.
  const missingKey =
    apiKey === undefined && customURL === undefined
      ? `no API key: set ${keyEnv ?? defaults.keyEnv}`
      : undefined;
  return { connection, missingKey };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}
