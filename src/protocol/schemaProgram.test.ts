import { z } from "zod/mini";
import { ServerFrame, StoredEntry } from "./index.ts";
import { runSchemaProgram } from "./runSchemaProgram.ts";
import { type Check, compileSchemas, type SchemaNode } from "./schemaProgram.ts";

const program = compileSchemas({ ServerFrame, StoredEntry });
const schemas = { ServerFrame, StoredEntry } as const;

let counter = 0;
/** A value the node accepts; `variant` picks a union's option. Strings differ, for unique-label rules. */
function sample(index: number, variant = 0): unknown {
  const node = program.nodes[index] as SchemaNode;
  const check = (name: Check[0]) => node.c?.find((c) => c[0] === name);
  switch (node.t) {
    case "string": {
      const min = (check("min")?.[1] as number | undefined) ?? 1;
      const max = (check("max")?.[1] as number | undefined) ?? 100;
      counter++;
      return `s${counter}`.padEnd(min, "x").slice(0, Math.max(min, Math.min(max, 12)));
    }
    case "number": {
      const gt = check("gt");
      return gt ? (gt[2] ? gt[1] : (gt[1] as number) + 1) : 1;
    }
    case "boolean":
      return true;
    case "unknown":
      return { any: [1, "two"] };
    case "never":
      return undefined;
    case "literal":
    case "enum":
      return node.v[variant % node.v.length];
    case "optional":
      return sample(node.i);
    case "array": {
      const min = (check("min")?.[1] as number | undefined) ?? 1;
      return Array.from({ length: Math.max(min, 1) }, () => sample(node.e));
    }
    case "record":
      return { key: sample(node.v) };
    case "object":
      return Object.fromEntries(node.f.map(([key, child]) => [key, sample(child)]));
    case "union":
      return sample(node.m[variant % node.m.length]![1]);
  }
}

const BAD = [null, "", " ", "  padded  ", 1.5, -1, 0, 2 ** 60, "x".repeat(250_000), [], {}, true];

/** Every value `value` turns into with one part broken, removed or added to. */
function* mutations(value: unknown): Generator<unknown> {
  for (const bad of BAD) yield bad;
  if (Array.isArray(value)) {
    yield [...value, ...value];
    yield Array(6).fill(value[0]);
    for (let i = 0; i < value.length; i++) {
      for (const changed of mutations(value[i])) yield value.map((v, j) => (j === i ? changed : v));
    }
  } else if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    yield { ...record, unexpected: 1 };
    for (const key of Object.keys(record)) {
      const { [key]: _removed, ...rest } = record;
      yield rest;
      for (const changed of mutations(record[key])) yield { ...record, [key]: changed };
    }
  }
}

const shown = (issues: readonly { code: string; path: PropertyKey[]; expected?: unknown }[]) =>
  issues.map((issue) => `${issue.path.join(".")}:${issue.code}:${String(issue.expected ?? "")}`);

function compare(name: keyof typeof schemas, value: unknown) {
  const expected = (schemas[name] as z.ZodMiniType).safeParse(value);
  const actual = runSchemaProgram(program, name, value);
  expect(actual.success).toBe(expected.success);
  if (expected.success && actual.success) expect(actual.data).toStrictEqual(expected.data);
  if (!expected.success && !actual.success) {
    expect(shown(actual.error.issues)).toEqual(shown(expected.error.issues));
  }
  return expected.success;
}

describe("schemaProgram", () => {
  it("[R2] accepts and refuses exactly what zod does, with zod's output and issues, for every frame and entry kind", () => {
    let valid = 0;
    let invalid = 0;
    for (const name of ["ServerFrame", "StoredEntry"] as const) {
      const root = program.nodes[program.roots[name]!] as SchemaNode;
      const variants = root.t === "union" ? root.m.length : 1;
      for (let variant = 0; variant < variants; variant++) {
        const value = sample(program.roots[name]!, variant);
        expect(compare(name, value)).toBe(true);
        valid++;
        for (const changed of mutations(value)) {
          if (compare(name, changed)) valid++;
          else invalid++;
        }
      }
    }
    expect(valid).toBeGreaterThan(100);
    expect(invalid).toBeGreaterThan(1000);
  });

  it("[R2] trims what zod trims and counts a string's length in code points", () => {
    const plain = (other: string) => ({
      seq: 3,
      at: 1,
      entry: {
        kind: "interaction.resolved",
        interactionId: "i1",
        outcome: { type: "answered", auto: false, answers: { "Q?": { labels: [], other } } },
      },
    });
    const trimmed = runSchemaProgram<{ entry: { outcome: { answers: object } } }>(
      program,
      "StoredEntry",
      plain("  mine  "),
    );
    expect(trimmed.success && trimmed.data.entry.outcome.answers).toEqual({
      "Q?": { labels: [], other: "mine" },
    });
    expect(compare("StoredEntry", plain("  mine  "))).toBe(true);
    expect(compare("StoredEntry", plain("   "))).toBe(false);
    // 4,000 code points of two units each fit; 4,001 do not.
    expect(compare("StoredEntry", plain("😀".repeat(4000)))).toBe(true);
    expect(compare("StoredEntry", plain("😀".repeat(4001)))).toBe(false);
  });

  it("[R2] compiles nodes that check the same thing into one, so the page downloads each once (issue 15)", () => {
    const keys = program.nodes.map((node) => JSON.stringify(node));
    expect(new Set(keys).size).toBe(keys.length);
    const two = compileSchemas({ a: z.strictObject({ x: z.string(), y: z.string() }) });
    expect(two.nodes).toEqual([
      {
        t: "object",
        f: [
          ["x", 1, false],
          ["y", 1, false],
        ],
        strict: true,
      },
      { t: "string" },
    ]);
  });

  it("[R2] refuses at build time what it cannot check as zod does", () => {
    const custom = z.strictObject({ a: z.string().check(z.refine((v) => v !== "x")) });
    expect(() => compileSchemas({ custom })).toThrow(/refinement that is not in rules.ts/);
    const lower = z.string().check(z.toLowerCase());
    expect(() => compileSchemas({ lower })).toThrow(/overwrite other than trim/);
    const plain = z.union([z.string(), z.number()]);
    expect(() => compileSchemas({ plain })).toThrow(/plain union/);
  });
});
