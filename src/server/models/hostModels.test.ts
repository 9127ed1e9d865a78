import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseCliOptions } from "../cliOptions.ts";
import { serverOptionsFor } from "../hostOptions.ts";
import { CliProcess } from "../testing/cliProcess.ts";
import { tempDir } from "../testing/helpers.ts";
import { ModelConfigError } from "./config.ts";
import { FALLBACK_MODEL } from "./factory.ts";
import { setUpHostModels } from "./hostModels.ts";

const SECRET = "sk-host-models-secret-42";

describe("host model setup (M1)", () => {
  let dir: ReturnType<typeof tempDir>;
  let configPath: string;

  beforeEach(() => {
    dir = tempDir();
    configPath = join(dir.path, "models.json");
    writeFileSync(
      configPath,
      JSON.stringify({
        providers: {
          local: {
            kind: "openai",
            baseURL: "http://127.0.0.1:9/v1",
            apiKey: SECRET,
            models: [{ id: "small", name: "Small local" }],
          },
          cloud: { kind: "anthropic", models: [{ id: "big" }] },
        },
        defaultModel: "local/small",
      }),
    );
  });
  afterEach(() => dir.remove());

  const setUp = (extra: { model?: string; configPath?: string; env?: Record<string, string> }) =>
    setUpHostModels({
      configPath: extra.configPath ?? configPath,
      workspace: dir.path,
      env: extra.env ?? {},
      model: extra.model,
      cwd: dir.path,
    });

  it("[M1] starts new sessions on the configured default and offers every model, keys left out", async () => {
    const models = await setUp({});
    expect(models.model).toBe("local/small");
    expect(models.warning).toBeUndefined();
    const listed = await models.listModels();
    expect(listed).toContainEqual({
      ref: "scripted/demo",
      provider: "scripted",
      label: "Scripted: demo",
    });
    expect(listed).toContainEqual({ ref: "local/small", provider: "local", label: "Small local" });
    expect(listed.find((m) => m.ref === "cloud/big")?.disabled).toMatch(/ANTHROPIC_API_KEY/);
    expect(JSON.stringify(listed)).not.toContain(SECRET);
    expect(JSON.stringify(listed)).not.toContain("127.0.0.1:9");
  });

  it("[M1] --model wins over the default and is stored in canonical form", async () => {
    expect((await setUp({ model: "SMALL" })).model).toBe("local/small");
    expect((await setUp({ model: "scripted:demo" })).model).toBe("scripted/demo");
    writeFileSync(join(dir.path, "s.yaml"), "turns:\n  - steps:\n      - say: hi\n");
    expect((await setUp({ model: "scripted:s.yaml" })).model).toBe(
      `scripted/${join(dir.path, "s.yaml")}`,
    );
  });

  it("[M1] refuses a --model that names no usable model", async () => {
    await expect(setUp({ model: "cloud/big" })).rejects.toThrow(/--model cloud\/big: .*disabled/);
    await expect(setUp({ model: "nope" })).rejects.toThrow(ModelConfigError);
    writeFileSync(join(dir.path, "bad.yaml"), "turns: 3\n");
    await expect(setUp({ model: "scripted:bad.yaml" })).rejects.toThrow(/invalid/);
  });

  it("[Q5] permission.disallowedTools in the config file reaches the server's permission check", async () => {
    const permissionOnly = join(dir.path, "permission.json");
    writeFileSync(
      permissionOnly,
      JSON.stringify({ permission: { disallowedTools: ["AskUserQuestion"] } }),
    );
    const models = await setUp({ configPath: permissionOnly });
    expect(models.disallowedTools).toEqual(["AskUserQuestion"]);
    expect(models.model).toBe(FALLBACK_MODEL);
    const options = serverOptionsFor(parseCliOptions([], dir.path), models, 0);
    expect(options.disallowedTools).toEqual(["AskUserQuestion"]);
    expect((await setUp({})).disallowedTools).toEqual([]);
  });

  it("[M1] a bad config file stops the start with a clear error", async () => {
    const broken = join(dir.path, "broken.json");
    writeFileSync(broken, "{ not json");
    await expect(setUp({ configPath: broken })).rejects.toThrow(/broken\.json is not valid JSON/);
    await expect(setUp({ configPath: join(dir.path, "missing.json") })).rejects.toThrow(
      /cannot read the model config/,
    );
  });

  it("[M1] falls back to the keyless demo, with a warning, when the default cannot be used", async () => {
    const models = await setUp({ env: { PLANGATE_MODEL: "cloud/big" } });
    expect(models.model).toBe(FALLBACK_MODEL);
    expect(models.warning).toMatch(/cannot be used/);
  });

  it("[M1] keeps offering the scripted models when the config breaks after start-up", async () => {
    const models = await setUp({});
    writeFileSync(configPath, "{ broken");
    const listed = await models.listModels();
    expect(listed.map((m) => m.ref)).toContain("scripted/demo");
    expect(listed.every((m) => m.provider === "scripted")).toBe(true);
  });

  it("[M1] the CLI exits 1 with the reason when --config names a bad file", async () => {
    const broken = join(dir.path, "broken.json");
    writeFileSync(broken, JSON.stringify({ providers: { x: { kind: "nope", models: [] } } }));
    mkdirSync(join(dir.path, "ws"));
    const cli = CliProcess.spawn([
      "--port",
      "0",
      "--workspace",
      join(dir.path, "ws"),
      "--config",
      broken,
      "--no-build",
    ]);
    expect(await cli.exited()).toBe(1);
    expect(cli.output).toMatch(/broken\.json is not a valid plangate model config/);
    expect(cli.output).not.toMatch(/^\s+at /m);
  });
});
