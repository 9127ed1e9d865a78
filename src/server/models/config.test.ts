import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createModelCatalog, publicModelInfo } from "./catalog.ts";
import {
  buildModelSetup,
  DEFAULT_OPENAI_BASE_URL,
  DEFAULT_OPENAI_MODEL,
  ModelConfigError,
  parseModelConfig,
} from "./config.ts";

let workspace: string;

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "plangate-config-"));
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

async function writeWorkspaceConfig(content: unknown): Promise<string> {
  const dir = join(workspace, ".zcode");
  await mkdir(dir, { recursive: true });
  const path = join(dir, "plangate.json");
  await writeFile(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

const scenarios = () => ["demo"];

describe("model config", () => {
  it("[M1] synthesises an openai provider from OPENAI_API_KEY alone", async () => {
    const catalog = createModelCatalog({
      workspace,
      env: { OPENAI_API_KEY: "sk-env-only" },
      scriptedScenarios: scenarios,
    });
    const setup = await catalog.load();
    expect(setup.entries.map((e) => e.ref)).toEqual([
      "scripted/demo",
      `openai/${DEFAULT_OPENAI_MODEL}`,
    ]);
    expect(setup.connections.get("openai")).toMatchObject({
      kind: "openai",
      baseURL: DEFAULT_OPENAI_BASE_URL,
      apiKey: "sk-env-only",
    });
  });

  it("[M1] takes the base URL and model of the synthesised provider from the environment", () => {
    const setup = buildModelSetup(null, {
      OPENAI_API_KEY: "sk-1",
      OPENAI_BASE_URL: "http://127.0.0.1:8080/v1",
      PLANGATE_MODEL: "openai/qwen3-coder",
    });
    expect(setup.entries.map((e) => e.ref)).toEqual(["openai/qwen3-coder"]);
    expect(setup.connections.get("openai")?.baseURL).toBe("http://127.0.0.1:8080/v1");
    expect(setup.defaultModel).toBe("openai/qwen3-coder");
  });

  it("[M1] synthesises nothing without a key, leaving only the scripted scenarios", async () => {
    const catalog = createModelCatalog({ workspace, env: {}, scriptedScenarios: scenarios });
    expect((await catalog.list()).map((e) => e.ref)).toEqual(["scripted/demo"]);
  });

  it("[M1] reads providers from .zcode/plangate.json with keys from the named variable", async () => {
    await writeWorkspaceConfig({
      providers: {
        local: {
          kind: "openai",
          name: "llama.cpp",
          baseURL: "http://127.0.0.1:8081/v1",
          models: [{ id: "qwen3", contextWindow: 32768 }],
        },
        claude: {
          kind: "anthropic",
          apiKeyEnv: "MY_CLAUDE_KEY",
          models: [
            {
              id: "claude-sonnet-5-5",
              name: "Sonnet",
              reasoningLevels: ["low", "high"],
              defaultReasoningLevel: "low",
            },
            { id: "claude-old", disabled: "retired by the team" },
          ],
        },
      },
      defaultModel: "local/qwen3",
    });
    const catalog = createModelCatalog({
      workspace,
      env: { MY_CLAUDE_KEY: "sk-ant-secret" },
      scriptedScenarios: scenarios,
    });
    const setup = await catalog.load();
    expect(setup.defaultModel).toBe("local/qwen3");
    expect(setup.entries).toContainEqual(
      expect.objectContaining({
        ref: "local/qwen3",
        providerName: "llama.cpp",
        contextWindow: 32768,
      }),
    );
    const sonnet = setup.entries.find((e) => e.ref === "claude/claude-sonnet-5-5");
    expect(sonnet).toMatchObject({ label: "Sonnet", defaultReasoningLevel: "low" });
    expect(sonnet?.disabled).toBeUndefined();
    expect(setup.entries.find((e) => e.ref === "claude/claude-old")?.disabled).toBe(
      "retired by the team",
    );
    expect(setup.connections.get("claude")?.apiKey).toBe("sk-ant-secret");
    expect(setup.connections.get("local")?.apiKey).toBeUndefined();
  });

  it("[M1] disables a vendor-hosted model whose key is missing and says which variable to set", () => {
    const setup = buildModelSetup(
      { providers: { oa: { kind: "openai", models: [{ id: "gpt-5.4" }] } } },
      {},
    );
    expect(setup.entries[0]?.disabled).toBe("no API key: set OPENAI_API_KEY");
  });

  it("[M1] never sends the vendor's key variable to a base URL named in the file", () => {
    const setup = buildModelSetup(
      {
        providers: {
          other: { kind: "openai", baseURL: "https://example.invalid/v1", models: [{ id: "m" }] },
        },
      },
      { OPENAI_API_KEY: "sk-must-not-travel" },
    );
    expect(setup.connections.get("other")?.apiKey).toBeUndefined();
  });

  it("[M1] PLANGATE_MODEL overrides the file's default model", () => {
    const setup = buildModelSetup(
      {
        providers: { a: { kind: "openai", apiKey: "k", models: [{ id: "x" }] } },
        defaultModel: "a/x",
      },
      { PLANGATE_MODEL: "scripted/demo" },
    );
    expect(setup.defaultModel).toBe("scripted/demo");
  });

  it("[M1] re-reads the file on every list()", async () => {
    const path = await writeWorkspaceConfig({
      providers: { a: { kind: "openai", apiKey: "k", models: [{ id: "one" }] } },
    });
    const catalog = createModelCatalog({ workspace, env: {}, scriptedScenarios: scenarios });
    expect((await catalog.list()).map((e) => e.ref)).toContain("a/one");
    await writeFile(
      path,
      JSON.stringify({
        providers: { a: { kind: "openai", apiKey: "k", models: [{ id: "two" }] } },
      }),
    );
    const refs = (await catalog.list()).map((e) => e.ref);
    expect(refs).toContain("a/two");
    expect(refs).not.toContain("a/one");
  });

  it("[M1] reports invalid JSON with the file's path", async () => {
    const path = await writeWorkspaceConfig("{ providers: ");
    const catalog = createModelCatalog({ workspace, env: {}, scriptedScenarios: scenarios });
    await expect(catalog.list()).rejects.toThrow(ModelConfigError);
    await expect(catalog.list()).rejects.toThrow(`${path} is not valid JSON`);
  });

  it("[M1] names every invalid field of the config", () => {
    const bad = JSON.stringify({
      providers: {
        x: {
          kind: "gemini",
          models: [{ id: "m", reasoningLevels: ["low"], defaultReasoningLevel: "high" }],
        },
        y: { kind: "openai", models: [{ id: "m" }], extra: true },
        scripted: { kind: "openai", models: [{ id: "m" }] },
      },
      defaultModel: "no-slash",
    });
    let message = "";
    try {
      parseModelConfig(bad, "plangate.json");
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("plangate.json is not a valid plangate model config");
    expect(message).toContain("providers.x.kind");
    expect(message).toContain("providers.x.models.0.defaultReasoningLevel");
    expect(message).toContain("extra");
    expect(message).toContain("reserved");
    expect(message).toContain("defaultModel: expected provider/model");
  });

  it("[M1] fails when an explicit --config path does not exist, but not for the default path", async () => {
    const missing = join(workspace, "nope.json");
    const explicit = createModelCatalog({
      configPath: missing,
      workspace,
      env: {},
      scriptedScenarios: scenarios,
    });
    await expect(explicit.list()).rejects.toThrow(`cannot read the model config ${missing}`);
    const implicit = createModelCatalog({ workspace, env: {}, scriptedScenarios: scenarios });
    await expect(implicit.list()).resolves.toHaveLength(1);
  });

  it("[M1] keeps keys and URLs out of the public model info", async () => {
    await writeWorkspaceConfig({
      providers: {
        inline: {
          kind: "openai",
          baseURL: "http://127.0.0.1:9/v1",
          apiKey: "sk-inline-secret",
          models: [{ id: "m1" }],
        },
        fromEnv: { kind: "anthropic", models: [{ id: "c1" }] },
      },
    });
    const catalog = createModelCatalog({
      workspace,
      env: { ANTHROPIC_API_KEY: "sk-ant-env-secret" },
      scriptedScenarios: scenarios,
    });
    const info = publicModelInfo(await catalog.list());
    const text = JSON.stringify(info);
    expect(text).not.toContain("sk-inline-secret");
    expect(text).not.toContain("sk-ant-env-secret");
    expect(text).not.toContain("127.0.0.1");
    expect(info).toEqual([
      { ref: "scripted/demo", provider: "scripted", label: "Scripted: demo" },
      { ref: "inline/m1", provider: "inline", label: "m1" },
      { ref: "fromEnv/c1", provider: "fromEnv", label: "c1" },
    ]);
  });
});
