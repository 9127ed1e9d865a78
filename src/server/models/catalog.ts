import type { ModelInfo } from "../../protocol/index.ts";
import type { Env } from "./config.ts";
import {
  buildModelSetup,
  defaultConfigPath,
  readModelConfigFile,
  SCRIPTED_PROVIDER_ID,
} from "./config.ts";
import { bundledScenarios } from "./scripted/load.ts";

export type ProviderKind = "openai" | "anthropic" | "scripted";

/** One model the host can run. Holds no secrets: it may be shown to the model and the browser. */
export interface CatalogEntry {
  /** `providerId/modelId`. */
  readonly ref: string;
  readonly providerId: string;
  readonly providerName: string;
  readonly kind: ProviderKind;
  readonly modelId: string;
  readonly label: string;
  readonly contextWindow?: number;
  readonly reasoningLevels: readonly string[];
  readonly defaultReasoningLevel?: string;
  /** Why the model cannot be used right now; absent when it can. */
  readonly disabled?: string;
}

/** M2: the host's model list, read fresh on every call. */
export interface ModelCatalog {
  list(): Promise<CatalogEntry[]>;
}

/** How to reach a configured provider. Server-side only: it carries the key. */
export interface ProviderConnection {
  readonly providerId: string;
  readonly kind: "openai" | "anthropic";
  readonly baseURL: string;
  readonly apiKey: string | undefined;
}

/** Everything one read of the configuration yields. */
export interface ModelSetup {
  readonly entries: CatalogEntry[];
  readonly connections: ReadonlyMap<string, ProviderConnection>;
  /** The configured default (`defaultModel` or `PLANGATE_MODEL`), unresolved. */
  readonly defaultModel: string | undefined;
  /** `permission.disallowedTools` of the config file (Q5). */
  readonly disallowedTools?: readonly string[];
}

/** A catalog that can also hand out connections and the default model (for the factory). */
export interface ConfiguredModelCatalog extends ModelCatalog {
  load(): Promise<ModelSetup>;
}

export { SCRIPTED_PROVIDER_ID };

export function scriptedEntries(scenarios: readonly string[]): CatalogEntry[] {
  return scenarios.map((scenario) => ({
    ref: `${SCRIPTED_PROVIDER_ID}/${scenario}`,
    providerId: SCRIPTED_PROVIDER_ID,
    providerName: SCRIPTED_PROVIDER_ID,
    kind: "scripted",
    modelId: scenario,
    label: `Scripted: ${scenario}`,
    reasoningLevels: [],
  }));
}

/** The browser's view of the catalog: refs, labels and reasons only, never a key or URL. */
export function publicModelInfo(entries: readonly CatalogEntry[]): ModelInfo[] {
  return entries.map((entry) => {
    const info: ModelInfo = { ref: entry.ref, provider: entry.providerName, label: entry.label };
    if (entry.disabled !== undefined) info.disabled = entry.disabled;
    return info;
  });
}

export interface ModelCatalogOptions {
  /** The `--config` path; without it, `<workspace>/.zcode/plangate.json` if present. */
  readonly configPath?: string | undefined;
  readonly workspace: string;
  readonly env: Env;
  /** Scenario names the scripted provider can run; the bundled ones by default. */
  readonly scriptedScenarios?: () => readonly string[] | Promise<readonly string[]>;
}

/**
 * The host's catalog: scripted scenarios first, then the configured providers. The file
 * and the environment are read again on every call, so edits show up without a restart.
 */
export function createModelCatalog(options: ModelCatalogOptions): ConfiguredModelCatalog {
  const path = options.configPath ?? defaultConfigPath(options.workspace);
  const required = options.configPath !== undefined;
  const load = async (): Promise<ModelSetup> => {
    const [config, scenarios] = await Promise.all([
      readModelConfigFile(path, { required }),
      (options.scriptedScenarios ?? bundledScenarios)(),
    ]);
    const setup = buildModelSetup(config, options.env);
    return { ...setup, entries: [...scriptedEntries(scenarios), ...setup.entries] };
  };
  return { load, list: async () => (await load()).entries };
}
