import type { CatalogEntry, ModelCatalog } from "../models/catalog.ts";
import type { ToolContext } from "./contract.ts";
import { createListModelsTool, LIST_MODELS_MAX_BYTES, listModelsTool } from "./listModels.ts";

function entry(ref: string, extra: Partial<CatalogEntry> = {}): CatalogEntry {
  const [providerId = "", modelId = ""] = ref.split("/");
  return {
    ref,
    providerId,
    providerName: `${providerId} name`,
    kind: "openai",
    modelId,
    label: modelId,
    reasoningLevels: [],
    ...extra,
  };
}

function context(extra: Partial<ToolContext> = {}): ToolContext {
  return {
    sessionId: "sess_1",
    workspace: "/tmp",
    signal: new AbortController().signal,
    mode: () => ({ permissionMode: "build", planEnabled: false }),
    ...extra,
  };
}

const catalogOf = (entries: CatalogEntry[]): ModelCatalog => ({ list: async () => entries });

describe("ListModels", () => {
  it("[M2] takes no parameters", () => {
    expect(listModelsTool.inputSchema.safeParse({}).success).toBe(true);
    expect(listModelsTool.inputSchema.safeParse({ model: "x" }).success).toBe(false);
    expect(listModelsTool.readOnly).toBe(true);
    expect(listModelsTool.description).toMatch(/never changes the model/);
  });

  it("[M2] prints one line per model with provider, levels, context and marks", async () => {
    const result = await listModelsTool.run(
      {},
      context({
        currentModel: () => "openai/gpt-5.4$high",
        catalog: catalogOf([
          entry("scripted/demo", { providerName: "scripted", kind: "scripted" }),
          entry("openai/gpt-5.4", {
            providerName: "OpenAI",
            reasoningLevels: ["low", "medium", "high"],
            defaultReasoningLevel: "medium",
            contextWindow: 400000,
          }),
          entry("claude/old", {
            providerName: "Anthropic",
            disabled: "no API key: set ANTHROPIC_API_KEY",
          }),
        ]),
      }),
    );
    expect(result.isError).toBeFalsy();
    const lines = result.output.split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe("scripted/demo | scripted | no reasoning levels | context unknown");
    expect(lines[2]).toBe(
      "openai/gpt-5.4 | OpenAI | reasoning low, medium, high (default medium) | context 400,000 tokens [current]",
    );
    expect(lines[3]).toBe(
      "claude/old | Anthropic | no reasoning levels | context unknown [disabled: no API key: set ANTHROPIC_API_KEY]",
    );
  });

  it("[M2] reads the catalog afresh on every call", async () => {
    let calls = 0;
    const catalog: ModelCatalog = {
      list: async () => {
        calls += 1;
        return [entry(`p/model-${calls}`)];
      },
    };
    await listModelsTool.run({}, context({ catalog }));
    const second = await listModelsTool.run({}, context({ catalog }));
    expect(second.output).toContain("p/model-2");
  });

  it("[M2] answers error 31 model_catalog_unavailable without a catalog, as a missing capability", async () => {
    const result = await listModelsTool.run({}, context());
    expect(result.isError).toBe(true);
    expect(result.output).toContain("31");
    expect(result.output).toContain("model_catalog_unavailable");
    expect(result.output).toMatch(/does not offer a model catalog/);
    expect(result.output).toMatch(/not a sign that no model is configured/);
  });

  it("[M2] keeps the output within 24,000 bytes when the catalog is large", async () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      entry(`provider-${i % 7}/some-rather-long-model-name-${i}`, {
        reasoningLevels: ["minimal", "low", "medium", "high"],
        defaultReasoningLevel: "medium",
        contextWindow: 200000,
      }),
    );
    const result = await listModelsTool.run({}, context({ catalog: catalogOf(many) }));
    expect(Buffer.byteLength(result.output, "utf8")).toBeLessThanOrEqual(LIST_MODELS_MAX_BYTES);
    const lines = result.output.split("\n");
    const shown = lines.filter((line) => line.startsWith("provider-")).length;
    expect(shown).toBeGreaterThan(50);
    expect(lines.at(-1)).toContain(`${2000 - shown} more models not shown`);
  });

  it("[M2] reports a catalog that cannot be read", async () => {
    const catalog: ModelCatalog = {
      list: async () => {
        throw new Error("plangate.json is not valid JSON");
      },
    };
    const result = await listModelsTool.run({}, context({ catalog }));
    expect(result).toMatchObject({ isError: true });
    expect(result.output).toContain("plangate.json is not valid JSON");
  });

  it("[M2] gives up on a catalog that does not answer in time", async () => {
    const tool = createListModelsTool({ timeoutMs: 20 });
    const catalog: ModelCatalog = { list: () => new Promise(() => {}) };
    const result = await tool.run({}, context({ catalog }));
    expect(result).toMatchObject({ isError: true });
    expect(result.output).toContain("did not answer");
  });
});
