import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, extname, resolve } from "node:path";
import type { ModelInfo } from "../../../protocol/index.ts";
import { scenariosDir } from "../../paths.ts";
import type { ModelProvider } from "../provider.ts";
import { loadScenario } from "./scenario.ts";
import { ScriptedProvider } from "./scriptedProvider.ts";

const bundledName = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Names of the scenarios shipped with plangate, e.g. `["demo"]`. */
export function bundledScenarios(): string[] {
  return readdirSync(scenariosDir)
    .filter((file) => file.endsWith(".yaml"))
    .map((file) => basename(file, ".yaml"))
    .sort();
}

export interface ScriptedRef {
  /** Canonical `scripted/<name>` for a bundled scenario, `scripted/<absolute path>` for a file. */
  ref: string;
  file: string;
  label: string;
}

/**
 * Reads `scripted:demo`, `scripted/demo` (a bundled scenario) or `scripted:<path>` (a file,
 * relative to `baseDir`). Returns undefined when the reference is not a scripted one.
 */
export function parseScriptedRef(ref: string, baseDir = process.cwd()): ScriptedRef | undefined {
  const match = /^scripted[:/](.+)$/i.exec(ref.trim());
  if (!match) return undefined;
  const name = match[1]!;
  const bundled = resolve(scenariosDir, `${name}.yaml`);
  if (bundledName.test(name) && extname(name) === "" && existsSync(bundled)) {
    return { ref: `scripted/${name}`, file: bundled, label: `Scripted: ${name}` };
  }
  const file = resolve(baseDir, name);
  return { ref: `scripted/${file}`, file, label: `Scripted: ${basename(file, extname(file))}` };
}

/**
 * A scenario file is loaded now, so a broken one is reported at start-up rather than mid-turn.
 * A bundled scenario ships with plangate and its tests check it: it is loaded on the first
 * call, which keeps its YAML parse and validation (tens of ms) out of every start.
 */
export function createScriptedProvider(ref: string, baseDir?: string): ModelProvider {
  const parsed = parseScriptedRef(ref, baseDir);
  if (!parsed) throw new Error(`${ref} is not a scripted model reference.`);
  if (dirname(parsed.file) === scenariosDir) {
    return new ScriptedProvider(parsed.ref, () => loadScenario(parsed.file));
  }
  return new ScriptedProvider(parsed.ref, loadScenario(parsed.file));
}

export function scriptedModelInfo(ref: string, baseDir?: string): ModelInfo | undefined {
  const parsed = parseScriptedRef(ref, baseDir);
  return parsed && { ref: parsed.ref, provider: "scripted", label: parsed.label };
}
