import { resolve } from "node:path";
import { build, type Metafile } from "esbuild";
import { bundleOptions, stampedFiles, startupInputs } from "./serverBundle.mjs";

const root = resolve(import.meta.dirname, "..");

/** Where the bundle's packages are, relative to the project (node_modules may be a link). */
const inPackage = (input: string, name: string) => input.includes(`node_modules/${name}/`);

// Issue 15's restart: what the first page does not need is loaded on first use, not at start.
describe("the server bundle's start-up", () => {
  let startup: string[];
  let metafile: Metafile;
  let bundleBytes: Uint8Array;
  beforeAll(async () => {
    const result = await build(bundleOptions(root));
    metafile = result.metafile;
    bundleBytes =
      result.outputFiles?.find((file) => file.path.endsWith(".cjs"))?.contents ?? new Uint8Array();
    startup = [...startupInputs(metafile)];
  }, 60_000);
  /** The bundled files that import the one whose path ends so. */
  const importersOf = (end: string) =>
    Object.entries(metafile.inputs)
      .filter(([, input]) => input.imports.some((entry) => entry.path.endsWith(end)))
      .map(([path]) => path);

  it("[B1] runs none of the MCP SDK's schemas until /mcp is first asked (issue 15: restart)", () => {
    expect(startup).toContain("src/server/mcp/mcpBridge.ts");
    const sdk = startup.filter((input) => inPackage(input, "@modelcontextprotocol/sdk"));
    expect(sdk.filter((input) => !input.endsWith("/shared/mediaType.js"))).toEqual([]);
  });

  it("[R13][R4] walks the workspace with tinyglobby only after the first page, or for a Glob or Grep (issue 15: restart)", () => {
    expect(startup).toContain("src/server/tools/walk.ts");
    expect(startup.filter((input) => inPackage(input, "tinyglobby"))).toEqual([]);
    expect(startup.filter((input) => inPackage(input, "fdir"))).toEqual([]);
  });

  it("[R1] loads glob, which @fastify/static calls only for a wildcard: false root, on its first call (issue 15: restart)", () => {
    expect(startup.some((input) => inPackage(input, "@fastify/static"))).toBe(true);
    for (const name of ["glob", "minimatch", "minipass", "path-scurry"]) {
      expect(startup.filter((input) => inPackage(input, name))).toEqual([]);
    }
  });

  it("[R1] loads of semver only the three functions fastify's plugin version check calls (issue 15: restart)", () => {
    const semver = startup.filter((input) => inPackage(input, "semver"));
    expect(semver.some((input) => input.endsWith("/semver/functions/satisfies.js"))).toBe(true);
    // The package's index, and with it every range helper (intersects, minVersion, outside…).
    expect(semver.filter((input) => /\/semver\/(index\.js|ranges\/)/.test(input))).toEqual([]);
  });

  it("[R2] carries zod's English messages alone, not its sixty other locales (issue 15: restart)", () => {
    const locales = startup.filter((input) => input.includes("node_modules/zod/v4/locales/"));
    expect(locales.map((input) => input.replace(/.*\/locales\//, ""))).toEqual(["en.js"]);
  });

  it("[R1] runs zod's fromJSONSchema module, which the server never calls, only on its first call (issue 15: restart)", () => {
    // Its stand-in requires it inside a function, which the metafile lists as a require-call
    // like one at load: so what is checked is that nothing else imports it.
    expect(importersOf("/from-json-schema.js")).toEqual([
      "startup-shim:./from-json-schema.js (shim)",
    ]);
  });

  it("[R1] makes http-errors' classes only when a file first fails to send (issue 15: restart)", () => {
    // Required inside its stand-in function (see fromJSONSchema above).
    expect(importersOf("/http-errors/index.js")).toEqual(["startup-shim:http-errors (shim)"]);
  });

  it("[R1] carries better-sqlite3's JavaScript, compiled from the code cache, not required from node_modules (issue 15: restart)", () => {
    const driver = startup.filter((input) => inPackage(input, "better-sqlite3"));
    expect(driver.some((input) => input.endsWith("/better-sqlite3/lib/database.js"))).toBe(true);
  });

  it("[R1] is pure ASCII, so every start decodes its 2.9 MB as one-byte text (issue 15: restart)", () => {
    // esbuild escapes strings but leaves a regular expression's characters as written: one `？`
    // made the launcher decode the whole file as UTF-8, ≈20 ms more per start.
    expect(bundleBytes.length).toBeGreaterThan(1_000_000);
    const first = bundleBytes.findIndex((byte) => byte >= 0x80);
    const around = bundleBytes.subarray(Math.max(0, first - 40), first + 8);
    expect(first < 0 ? "" : Buffer.from(around).toString("utf8")).toBe("");
  });

  it("[S1][U3] loads pg only on PostgreSQL and web-push only to send a push (issue 15: restart)", () => {
    expect(startup.filter((input) => inPackage(input, "pg"))).toEqual([]);
    expect(startup.filter((input) => inPackage(input, "web-push"))).toEqual([]);
  });
});

describe("the bundle's stamp", () => {
  it("[R1] checks a bundled package by its package.json, not each of its files, and every bundled source by itself (issue 15: restart)", async () => {
    const { metafile } = await build(bundleOptions(root));
    const bundled = Object.keys(metafile.inputs);
    const stamped = stampedFiles(bundled);
    const inPackages = stamped.filter((file) => file.includes("node_modules/"));
    expect(inPackages.filter((file) => !file.endsWith("/package.json"))).toEqual([
      "node_modules/.package-lock.json",
    ]);
    expect(inPackages).toContain("node_modules/fastify/package.json");
    expect(inPackages).toContain("node_modules/@fastify/static/package.json");
    for (const source of bundled.filter((input) => input.startsWith("src/"))) {
      expect(stamped).toContain(source);
    }
    expect(stamped).toContain("package-lock.json");
    // Far fewer times to read at every start than files bundled.
    expect(stamped.length).toBeLessThan(bundled.length / 2);
  }, 60_000);
});
