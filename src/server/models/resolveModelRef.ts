import type { CatalogEntry } from "./catalog.ts";

export type ResolveFailureCode = "empty" | "not_found" | "ambiguous" | "disabled" | "bad_level";

export type ResolveResult =
  | {
      ok: true;
      entry: CatalogEntry;
      /** The reasoning level asked for, else the model's default; undefined when it has none. */
      level: string | undefined;
      /** `providerId/modelId`, plus `$level` when the reference named one. */
      canonicalRef: string;
    }
  | { ok: false; code: ResolveFailureCode; message: string };

export const MAX_LISTED_IDS = 40;

/**
 * M3: turn what a user or model typed (`provider/model`, a bare model id, either with
 * an optional `$level`) into one catalog entry. Comparison ignores case; a disabled
 * entry is never picked without saying so.
 */
export function resolveModelRef(
  ref: string,
  entries: readonly CatalogEntry[],
  currentProvider?: string,
): ResolveResult {
  const trimmed = ref.trim();
  const dollar = trimmed.lastIndexOf("$");
  const name = (dollar === -1 ? trimmed : trimmed.slice(0, dollar)).trim();
  const levelAsked = dollar === -1 ? undefined : trimmed.slice(dollar + 1).trim();
  if (name === "") {
    return fail("empty", "No model was named.", entries);
  }

  const picked = pickEntry(name, entries, currentProvider);
  if (!picked.ok) return picked;
  const { entry } = picked;

  if (levelAsked === undefined) {
    return { ok: true, entry, level: entry.defaultReasoningLevel, canonicalRef: entry.ref };
  }
  const level = entry.reasoningLevels.find((l) => l.toLowerCase() === levelAsked.toLowerCase());
  if (level === undefined) {
    const offered =
      entry.reasoningLevels.length === 0
        ? "it has no reasoning levels"
        : `its levels are ${entry.reasoningLevels.join(", ")}`;
    return {
      ok: false,
      code: "bad_level",
      message: `"${levelAsked}" is not a reasoning level of ${entry.ref}; ${offered}.`,
    };
  }
  return { ok: true, entry, level, canonicalRef: `${entry.ref}$${level}` };
}

function pickEntry(
  name: string,
  entries: readonly CatalogEntry[],
  currentProvider: string | undefined,
): { ok: true; entry: CatalogEntry } | { ok: false; code: ResolveFailureCode; message: string } {
  const wanted = name.toLowerCase();

  const exact = entries.find((e) => e.ref.toLowerCase() === wanted);
  if (exact !== undefined) {
    if (exact.disabled !== undefined) {
      return fail("disabled", `${exact.ref} is disabled: ${exact.disabled}.`, entries);
    }
    return { ok: true, entry: exact };
  }

  const sameId = entries.filter((e) => e.modelId.toLowerCase() === wanted);
  const usable = sameId.filter((e) => e.disabled === undefined);
  const [only] = usable;
  if (usable.length === 1 && only !== undefined) return { ok: true, entry: only };
  if (usable.length > 1) {
    const current = currentProvider?.toLowerCase();
    const inCurrent = usable.find((e) => e.providerId.toLowerCase() === current);
    if (inCurrent !== undefined) return { ok: true, entry: inCurrent };
    const candidates = usable.map((e) => e.ref).join(", ");
    return {
      ok: false,
      code: "ambiguous",
      message: `"${name}" is offered by several providers (${candidates}); name one as provider/model.`,
    };
  }
  const [disabled] = sameId;
  if (disabled !== undefined) {
    return fail("disabled", `${disabled.ref} is disabled: ${disabled.disabled}.`, entries);
  }
  return fail("not_found", `No model matches "${name}".`, entries);
}

function fail(
  code: ResolveFailureCode,
  reason: string,
  entries: readonly CatalogEntry[],
): { ok: false; code: ResolveFailureCode; message: string } {
  const usable = entries.filter((e) => e.disabled === undefined).map((e) => e.ref);
  const shown = usable.slice(0, MAX_LISTED_IDS);
  const more = usable.length - shown.length;
  const list =
    shown.length === 0
      ? "No model is available."
      : `Available: ${shown.join(", ")}${more > 0 ? ` (and ${more} more)` : ""}.`;
  return { ok: false, code, message: `${reason} ${list} Call ListModels for details.` };
}
