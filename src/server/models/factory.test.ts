import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createModelCatalog } from "./catalog.ts";
import {
  createModelProvider,
  defaultSessionModel,
  FALLBACK_MODEL,
  lazyModelProvider,
  providerIdOf,
  resolveModelChoice,
} from "./factory.ts";
import { ModelError } from "./provider.ts";
import { anthropicStream } from "./testing/fakeAnthropic.ts";
import { openAIStream } from "./testing/fakeOpenAI.ts";
import { type LoopbackApi, startLoopbackApi } from "./testing/loopbackApi.ts";

let dir: string;
const apis: LoopbackApi[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "plangate-factory-"));
});

afterEach(async () => {
  await Promise.all(apis.splice(0).map((api) => api.close()));
  await rm(dir, { recursive: true, force: true });
});

async function catalogWith(providers: Record<string, unknown>) {
  const configPath = join(dir, "plangate.json");
  await writeFile(configPath, JSON.stringify({ providers }));
  return createModelCatalog({ configPath, workspace: dir, env: {} });
}

const request = () => ({
  system: "",
  messages: [{ role: "user" as const, content: "hi" }],
  tools: [],
  signal: new AbortController().signal,
});

describe("createModelProvider", () => {
  it("[M1] builds an OpenAI-compatible provider that talks to the configured base URL", async () => {
    const api = await startLoopbackApi([openAIStream([{ content: "from local" }])]);
    apis.push(api);
    const catalog = await catalogWith({
      local: {
        kind: "openai",
        baseURL: `${api.origin}/v1`,
        models: [{ id: "qwen3", reasoningLevels: ["low", "high"] }],
      },
    });
    const provider = await createModelProvider("QWEN3$high", { catalog, maxRetries: 0 });
    expect(provider.ref).toBe("local/qwen3$high");
    const response = await provider.complete(request());
    expect(response.text).toBe("from local");
    expect(api.requests[0]?.body).toMatchObject({ model: "qwen3", reasoning_effort: "high" });
  });

  it("[M1] by default sends a failed request twice more, as the vendors' SDKs do", async () => {
    const api = await startLoopbackApi([
      { reset: "before-response" },
      { reset: "before-response" },
      openAIStream([{ content: "third try" }]),
    ]);
    apis.push(api);
    const catalog = await catalogWith({
      local: { kind: "openai", baseURL: `${api.origin}/v1`, models: [{ id: "qwen3" }] },
    });
    const provider = await createModelProvider("local/qwen3", { catalog });
    expect((await provider.complete(request())).text).toBe("third try");
    expect(api.requests).toHaveLength(3);
  });

  it("[M1] builds an Anthropic provider with the key from the config", async () => {
    const api = await startLoopbackApi([anthropicStream([{ type: "text", parts: ["hello"] }])]);
    apis.push(api);
    const catalog = await catalogWith({
      claude: { kind: "anthropic", baseURL: api.origin, apiKey: "k-123456", models: [{ id: "c" }] },
    });
    const provider = await createModelProvider("claude/c", { catalog, maxRetries: 0 });
    expect((await provider.complete(request())).text).toBe("hello");
    expect(api.requests[0]?.path).toBe("/v1/messages");
  });

  it("[M1] hands scripted references to the scripted provider", async () => {
    const catalog = await catalogWith({});
    const made: string[] = [];
    const deps = {
      catalog,
      createScripted: (ref: string) => {
        made.push(ref);
        return {
          ref,
          complete: async () => ({ text: "", toolCalls: [], stopReason: "end" as const }),
        };
      },
    };
    await createModelProvider("scripted/demo", deps);
    await createModelProvider("demo", deps);
    await createModelProvider("scripted:demo", deps);
    expect(made).toEqual(["scripted/demo", "scripted/demo", "scripted:demo"]);
    const real = await createModelProvider("scripted:demo", { catalog });
    expect(real.ref).toBe("scripted/demo");
  });

  it("[M3] refuses an unknown or disabled model with a config error naming ListModels", async () => {
    const catalog = await catalogWith({
      oa: { kind: "openai", models: [{ id: "gpt-5.4" }] },
    });
    const missing = createModelProvider("nope", { catalog });
    await expect(missing).rejects.toBeInstanceOf(ModelError);
    await expect(missing).rejects.toMatchObject({ kind: "config" });
    await expect(missing).rejects.toThrow("ListModels");
    await expect(createModelProvider("oa/gpt-5.4", { catalog })).rejects.toThrow(
      "no API key: set OPENAI_API_KEY",
    );
  });

  it("[W2][M3] a model the turn cannot use ends it with a coded notice, not the model-facing listing", async () => {
    const catalog = await catalogWith({
      oa: { kind: "openai", models: [{ id: "gpt-5.4" }] },
    });
    await expect(createModelProvider("nope", { catalog })).rejects.toMatchObject({
      notice: { code: "model.unknown", params: { model: "nope" } },
    });
    await expect(createModelProvider("oa/gpt-5.4", { catalog })).rejects.toMatchObject({
      notice: { code: "model.disabled", params: { model: "oa/gpt-5.4" } },
    });
  });
});

describe("resolveModelChoice", () => {
  it("[M3] returns the canonical ref, honouring the current provider", async () => {
    const catalog = await catalogWith({
      a: { kind: "openai", apiKey: "k", models: [{ id: "same" }] },
      b: { kind: "openai", apiKey: "k", models: [{ id: "same" }] },
    });
    expect(await resolveModelChoice("SAME", { catalog, currentProvider: "b" })).toEqual({
      ok: true,
      ref: "b/same",
    });
    expect(await resolveModelChoice("same", { catalog })).toMatchObject({
      ok: false,
      code: "ambiguous",
    });
    expect(providerIdOf("b/same")).toBe("b");
  });

  it("[M3] accepts a scripted scenario file only when it exists", async () => {
    const catalog = await catalogWith({});
    await writeFile(join(dir, "mine.yaml"), "turns: []\n");
    expect(await resolveModelChoice("scripted:mine.yaml", { catalog, baseDir: dir })).toEqual({
      ok: true,
      ref: `scripted/${join(dir, "mine.yaml")}`,
    });
    expect(await resolveModelChoice("scripted:gone.yaml", { catalog, baseDir: dir })).toMatchObject(
      { ok: false, code: "not_found" },
    );
  });
});

describe("resolveModelChoice for a page (scenarioFilesWithin)", () => {
  it("[M3][R9] a page picks only the workspace's own scenario files: never another file on the host, nor plangate's .zcode/", async () => {
    const catalog = await catalogWith({});
    const workspace = join(dir, "ws");
    await mkdir(join(workspace, ".zcode"), { recursive: true });
    await writeFile(join(workspace, "mine.yaml"), "turns: []\n");
    await writeFile(join(workspace, ".zcode", "push-vapid.yaml"), "privateKey: secret\n");
    await writeFile(join(dir, "outside.yaml"), "db_password: hunter2\n");
    await symlink(join(dir, "outside.yaml"), join(workspace, "link.yaml"));
    const choose = (ref: string) =>
      resolveModelChoice(ref, { catalog, baseDir: workspace, scenarioFilesWithin: workspace });

    expect(await choose("scripted:mine.yaml")).toEqual({
      ok: true,
      ref: `scripted/${join(workspace, "mine.yaml")}`,
    });
    for (const ref of [
      `scripted:${join(dir, "outside.yaml")}`,
      "scripted:../outside.yaml",
      "scripted:link.yaml",
      "scripted:.zcode/push-vapid.yaml",
      "scripted:/etc/hostname",
    ]) {
      expect(await choose(ref), ref).toMatchObject({ ok: false, code: "not_found" });
    }
  });
});

describe("defaultSessionModel", () => {
  it("[M1] starts on the keyless demo unless a usable default is configured", async () => {
    const configPath = join(dir, "plangate.json");
    const config = (defaultModel: string) =>
      JSON.stringify({
        providers: { a: { kind: "openai", apiKey: "k", models: [{ id: "m" }] } },
        defaultModel,
      });
    const catalog = createModelCatalog({ configPath, workspace: dir, env: {} });
    await writeFile(configPath, JSON.stringify({ providers: {} }));
    expect(await defaultSessionModel({ catalog })).toEqual({ ref: FALLBACK_MODEL });
    await writeFile(configPath, config("a/M"));
    expect(await defaultSessionModel({ catalog })).toEqual({ ref: "a/m" });
    await writeFile(configPath, config("a/missing"));
    const fallback = await defaultSessionModel({ catalog });
    expect(fallback.ref).toBe(FALLBACK_MODEL);
    expect(fallback.warning).toContain("a/missing");
  });
});

describe("lazyModelProvider", () => {
  it("[M1] resolves on the first call and reports a bad reference as that turn's error", async () => {
    const api = await startLoopbackApi([openAIStream([{ content: "lazy" }])]);
    apis.push(api);
    const configPath = join(dir, "plangate.json");
    await writeFile(configPath, JSON.stringify({ providers: {} }));
    const catalog = createModelCatalog({ configPath, workspace: dir, env: {} });
    const provider = lazyModelProvider("local/qwen3", { catalog, maxRetries: 0 });
    expect(provider.ref).toBe("local/qwen3");
    await expect(provider.complete(request())).rejects.toMatchObject({ kind: "config" });
    await writeFile(
      configPath,
      JSON.stringify({
        providers: {
          local: { kind: "openai", baseURL: `${api.origin}/v1`, models: [{ id: "qwen3" }] },
        },
      }),
    );
    expect((await provider.complete(request())).text).toBe("lazy");
  });
});
