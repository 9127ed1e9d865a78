import type { ModelInfo } from "../../protocol/index.ts";
import {
  type ConfiguredModelCatalog,
  createModelCatalog,
  publicModelInfo,
  scriptedEntries,
} from "./catalog.ts";
import { type Env, ModelConfigError } from "./config.ts";
import {
  createModelProvider,
  defaultSessionModel,
  lazyModelProvider,
  providerIdOf,
  resolveModelChoice,
} from "./factory.ts";
import type { ModelProvider } from "./provider.ts";
import { bundledScenarios } from "./scripted/load.ts";

export interface HostModelOptions {
  /** `--config`; without it `<workspace>/.zcode/plangate.json` when that file exists. */
  readonly configPath?: string | undefined;
  readonly workspace: string;
  readonly env: Env;
  /** `--model`; without it the configured default, else the keyless demo. */
  readonly model?: string | undefined;
  /** Where a relative `--model scripted:<file>` is looked up (the shell's directory). */
  readonly cwd: string;
}

/** What the CLI hands to `createServer`: the catalog and how to reach its models. */
export interface HostModels {
  readonly catalog: ConfiguredModelCatalog;
  /** Canonical ref of the model new sessions start on. */
  readonly model: string;
  /** Why the configured default could not be used, when it could not. */
  readonly warning?: string;
  /** Q5: `permission.disallowedTools` of the config file at start-up. */
  readonly disallowedTools: readonly string[];
  providerFor(ref: string): ModelProvider;
  listModels(): Promise<ModelInfo[]>;
}

/**
 * M1 at start-up: reads the model config once so a broken file stops the start with its own
 * message (`ModelConfigError`), settles the model of new sessions, and checks that it can be
 * built. Later reads are fresh, so an edited config shows up without a restart.
 */
export async function setUpHostModels(options: HostModelOptions): Promise<HostModels> {
  const catalog = createModelCatalog({
    configPath: options.configPath,
    workspace: options.workspace,
    env: options.env,
  });
  const setup = await catalog.load();
  const providerDeps = (ref: string) => ({
    catalog,
    currentProvider: providerIdOf(ref),
    baseDir: options.workspace,
  });

  let model: string;
  let warning: string | undefined;
  if (options.model === undefined) {
    ({ ref: model, warning } = await defaultSessionModel({ catalog, baseDir: options.workspace }));
  } else {
    const choice = await resolveModelChoice(options.model, { catalog, baseDir: options.cwd });
    if (!choice.ok) throw new ModelConfigError(`--model ${options.model}: ${choice.message}`);
    model = choice.ref;
  }
  // Loads a scenario file or checks a connection now, not in the middle of the first turn.
  await createModelProvider(model, providerDeps(model));

  return {
    catalog,
    model,
    ...(warning === undefined ? {} : { warning }),
    disallowedTools: setup.disallowedTools ?? [],
    providerFor: (ref) => lazyModelProvider(ref, providerDeps(ref)),
    async listModels() {
      try {
        return publicModelInfo(await catalog.list());
      } catch (error) {
        // A config broken after start-up must not lock the page out: the keyless models remain.
        if (!(error instanceof ModelConfigError)) throw error;
        return publicModelInfo(scriptedEntries(bundledScenarios()));
      }
    },
  };
}
