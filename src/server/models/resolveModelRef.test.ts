import type { CatalogEntry } from "./catalog.ts";
import { MAX_LISTED_IDS, resolveModelRef } from "./resolveModelRef.ts";

function entry(
  providerId: string,
  modelId: string,
  extra: Partial<CatalogEntry> = {},
): CatalogEntry {
  return {
    ref: `${providerId}/${modelId}`,
    providerId,
    providerName: providerId.toUpperCase(),
    kind: "openai",
    modelId,
    label: modelId,
    reasoningLevels: [],
    ...extra,
  };
}

const catalog: CatalogEntry[] = [
  entry("openai", "gpt-5.4", {
    reasoningLevels: ["low", "medium", "high"],
    defaultReasoningLevel: "medium",
  }),
  entry("openai", "shared-model"),
  entry("local", "shared-model"),
  entry("local", "qwen3-coder"),
  entry("anthropic", "claude-sonnet-5-5", { kind: "anthropic" }),
  entry("anthropic", "retired", { disabled: "no API key: set ANTHROPIC_API_KEY" }),
  entry("openai", "half-off", { disabled: "switched off" }),
  entry("local", "half-off"),
];

describe("resolveModelRef", () => {
  it("[M3] resolves provider/model exactly", () => {
    const result = resolveModelRef("local/shared-model", catalog);
    expect(result.ok && result.entry.ref).toBe("local/shared-model");
  });

  it("[M3] resolves a bare id that only one provider offers", () => {
    const result = resolveModelRef("qwen3-coder", catalog);
    expect(result.ok && result.entry.ref).toBe("local/qwen3-coder");
  });

  it("[M3] resolves a bare id offered twice to the current session's provider", () => {
    const result = resolveModelRef("shared-model", catalog, "local");
    expect(result.ok && result.entry.ref).toBe("local/shared-model");
    const other = resolveModelRef("shared-model", catalog, "openai");
    expect(other.ok && other.entry.ref).toBe("openai/shared-model");
  });

  it("[M3] reports an ambiguity when the current provider offers none of the candidates", () => {
    const result = resolveModelRef("shared-model", catalog, "anthropic");
    expect(result).toMatchObject({ ok: false, code: "ambiguous" });
    if (result.ok) return;
    expect(result.message).toContain("openai/shared-model");
    expect(result.message).toContain("local/shared-model");
    expect(resolveModelRef("shared-model", catalog)).toMatchObject({
      ok: false,
      code: "ambiguous",
    });
  });

  it("[M3] accepts a valid $level and otherwise uses the default level", () => {
    const high = resolveModelRef("openai/gpt-5.4$high", catalog);
    expect(high).toMatchObject({ ok: true, level: "high", canonicalRef: "openai/gpt-5.4$high" });
    const plain = resolveModelRef("gpt-5.4", catalog);
    expect(plain).toMatchObject({ ok: true, level: "medium", canonicalRef: "openai/gpt-5.4" });
    const none = resolveModelRef("qwen3-coder", catalog);
    expect(none).toMatchObject({ ok: true, level: undefined });
  });

  it("[M3] rejects a $level the model does not offer", () => {
    const result = resolveModelRef("gpt-5.4$extreme", catalog);
    expect(result).toMatchObject({ ok: false, code: "bad_level" });
    if (result.ok) return;
    expect(result.message).toContain("low, medium, high");
    expect(resolveModelRef("qwen3-coder$high", catalog)).toMatchObject({
      ok: false,
      code: "bad_level",
    });
  });

  it("[M3] never matches a disabled entry silently", () => {
    const exact = resolveModelRef("anthropic/retired", catalog);
    expect(exact).toMatchObject({ ok: false, code: "disabled" });
    if (!exact.ok) expect(exact.message).toContain("no API key");
    expect(resolveModelRef("retired", catalog)).toMatchObject({ ok: false, code: "disabled" });
    const skipped = resolveModelRef("half-off", catalog, "openai");
    expect(skipped.ok && skipped.entry.ref).toBe("local/half-off");
    expect(resolveModelRef("openai/half-off", catalog)).toMatchObject({
      ok: false,
      code: "disabled",
    });
  });

  it("[M3] ignores case in provider, model and level", () => {
    const result = resolveModelRef("OpenAI/GPT-5.4$HIGH", catalog);
    expect(result).toMatchObject({ ok: true, level: "high", canonicalRef: "openai/gpt-5.4$high" });
    expect(resolveModelRef("QWEN3-CODER", catalog)).toMatchObject({ ok: true });
  });

  it("[M3] lists at most 40 usable ids on failure and points to ListModels", () => {
    const many = Array.from({ length: 55 }, (_, i) => entry("bulk", `model-${i}`));
    const result = resolveModelRef("nothing-like-it", many);
    expect(result).toMatchObject({ ok: false, code: "not_found" });
    if (result.ok) return;
    const listed = result.message.match(/bulk\/model-\d+/g) ?? [];
    expect(listed).toHaveLength(MAX_LISTED_IDS);
    expect(result.message).toContain("15 more");
    expect(result.message).toContain("ListModels");
  });

  it("[M3] leaves disabled ids out of the failure list", () => {
    const result = resolveModelRef("missing", catalog);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).not.toContain("anthropic/retired");
    expect(result.message).toContain("local/qwen3-coder");
  });
});
