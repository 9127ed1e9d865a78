import { existsSync } from "node:fs";
import { relative, sep } from "node:path";
import { DEMO_MODEL } from "../../protocol/drivers.ts";
import { isProtectedPath } from "../permissions/protectedPaths.ts";
import { isInside, realPathSync } from "../tools/workspacePath.ts";
import type { ConfiguredModelCatalog } from "./catalog.ts";
import { ModelConfigError } from "./config.ts";
import type { ModelProvider } from "./provider.ts";
import { ModelError } from "./provider.ts";
import { type ResolveFailureCode, resolveModelRef } from "./resolveModelRef.ts";
import { DEFAULT_MAX_RETRIES } from "./retries.ts";
import { createScriptedProvider, parseScriptedRef } from "./scripted/load.ts";

export interface ModelProviderDeps {
  readonly catalog: ConfiguredModelCatalog;
  /** The provider id of the session's current model; settles a bare id offered twice (M3). */
  readonly currentProvider?: string | undefined;
  /** Where `scripted:<relative path>` scenario files are looked up. */
  readonly baseDir?: string | undefined;
  readonly createScripted?: (ref: string, baseDir?: string) => ModelProvider;
  /** Retries of the vendor SDKs; small so a failing model ends the turn quickly. */
  readonly maxRetries?: number;
}

export type ModelChoice =
  | { ok: true; ref: string }
  | { ok: false; code: ResolveFailureCode | "config"; message: string };

/** The provider part of `provider/model`, for `currentProvider`. */
export function providerIdOf(ref: string): string | undefined {
  const slash = ref.indexOf("/");
  return slash > 0 ? ref.slice(0, slash) : undefined;
}

/** A scenario file named directly (`scripted:path.yaml`) rather than a bundled scenario. */
function isScriptedRef(ref: string): boolean {
  return /^scripted[:/]/i.test(ref.trim());
}

/**
 * A scenario file a page may pick: a YAML file of the workspace, outside plangate's own
 * `.zcode/` and `.git/`. Anywhere else on the host it would be read, and its YAML errors
 * quoted into the session, for anyone with the page (a named person, S3).
 */
function scenarioFileAllowed(file: string, workspace: string): boolean {
  const root = realPathSync(workspace);
  const real = realPathSync(file);
  if (!isInside(root, real) || !/\.ya?ml$/i.test(real)) return false;
  return !isProtectedPath(relative(root, real).split(sep).join("/"));
}

/**
 * M3 for `model.set` and `--model`: the canonical ref to store for what the user picked, or
 * why it cannot be used. Scripted scenario files are accepted when the file exists, and when
 * `scenarioFilesWithin` is given (a page's choice), only a workspace's own YAML file.
 */
export async function resolveModelChoice(
  ref: string,
  deps: Pick<ModelProviderDeps, "catalog" | "currentProvider" | "baseDir"> & {
    scenarioFilesWithin?: string;
  },
): Promise<ModelChoice> {
  // The config broken while the server runs: said as a prompt's turn says it.
  const entries = await deps.catalog.load().then(
    (setup) => setup.entries,
    (error: unknown) => {
      if (error instanceof ModelConfigError) return error;
      throw error;
    },
  );
  if (entries instanceof ModelConfigError) {
    return { ok: false, code: "config", message: entries.message };
  }
  const resolved = resolveModelRef(ref, entries, deps.currentProvider);
  if (resolved.ok) return { ok: true, ref: resolved.canonicalRef };
  if (isScriptedRef(ref) && resolved.code === "not_found") {
    const scripted = parseScriptedRef(ref, deps.baseDir);
    if (scripted === undefined || !existsSync(scripted.file)) return resolved;
    const within = deps.scenarioFilesWithin;
    if (within !== undefined && !scenarioFileAllowed(scripted.file, within)) {
      return {
        ok: false,
        code: "not_found",
        message:
          "A scenario file must be a .yaml file in the workspace, outside .zcode/ and .git/.",
      };
    }
    return { ok: true, ref: scripted.ref };
  }
  return resolved;
}

/**
 * Builds the provider for a model reference: the catalog decides which provider and
 * model it means, the configuration supplies the connection. Throws
 * `ModelError("config")` when the reference cannot be used.
 */
export async function createModelProvider(
  ref: string,
  deps: ModelProviderDeps,
): Promise<ModelProvider> {
  const createScripted = deps.createScripted ?? createScriptedProvider;
  const setup = await deps.catalog.load();
  const resolved = resolveModelRef(ref, setup.entries, deps.currentProvider);
  if (!resolved.ok) {
    if (isScriptedRef(ref) && resolved.code === "not_found") {
      return createScripted(ref, deps.baseDir);
    }
    const code = resolved.code === "disabled" ? "model.disabled" : "model.unknown";
    throw new ModelError(
      "config",
      { code, params: { model: ref.trim() } },
      undefined,
      resolved.message,
    );
  }
  const { entry, level, canonicalRef } = resolved;
  if (entry.kind === "scripted") return createScripted(entry.ref, deps.baseDir);

  const connection = setup.connections.get(entry.providerId);
  if (connection === undefined) {
    throw new ModelError("config", {
      code: "model.noConnection",
      params: { provider: entry.providerId },
    });
  }
  const options = {
    ref: canonicalRef,
    model: entry.modelId,
    baseURL: connection.baseURL,
    apiKey: connection.apiKey,
    reasoningLevel: level,
    maxRetries: deps.maxRetries ?? DEFAULT_MAX_RETRIES,
  };
  // The vendor SDKs load on first use: together they cost ~0.6 s of start-up that a keyless
  // start never needs.
  if (connection.kind === "anthropic") {
    const { createAnthropicProvider } = await import("./anthropic.ts");
    return createAnthropicProvider(options);
  }
  const { createOpenAICompatibleProvider } = await import("./openaiCompatible.ts");
  return createOpenAICompatibleProvider(options);
}

export const FALLBACK_MODEL = DEMO_MODEL;

/**
 * The model a new session starts on: the configured default (`PLANGATE_MODEL` or
 * `defaultModel`) when it resolves, else the keyless demo with a warning saying why.
 */
export async function defaultSessionModel(
  deps: Pick<ModelProviderDeps, "catalog" | "baseDir">,
): Promise<{ ref: string; warning?: string }> {
  const { defaultModel } = await deps.catalog.load();
  if (defaultModel === undefined) return { ref: FALLBACK_MODEL };
  const choice = await resolveModelChoice(defaultModel, deps);
  if (choice.ok) return { ref: choice.ref };
  return {
    ref: FALLBACK_MODEL,
    warning: `The default model ${defaultModel} cannot be used, so ${FALLBACK_MODEL} runs instead. ${choice.message}`,
  };
}

/**
 * A provider that resolves its reference when first asked to complete, for callers that
 * need one synchronously. The config is read then, so a bad reference ends that turn
 * with a `ModelError("config")` instead of failing at session creation.
 */
export function lazyModelProvider(ref: string, deps: ModelProviderDeps): ModelProvider {
  let made: Promise<ModelProvider> | undefined;
  return {
    ref,
    async complete(request) {
      made ??= createModelProvider(ref, deps);
      try {
        return await (await made).complete(request);
      } catch (error) {
        // A reference that failed to resolve is tried again next turn: the config may be fixed.
        if (error instanceof ModelError && error.kind === "config") made = undefined;
        throw error;
      }
    },
  };
}
