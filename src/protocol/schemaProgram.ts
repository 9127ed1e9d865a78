import type { z } from "zod/mini";
import { RULES, type RuleName } from "./rules.ts";

// Issue 15: the page checks every server frame against the protocol's schemas, but zod's parser
// was a tenth of its first load. At build time the schemas are compiled into this plain-JSON
// program, which runSchemaProgram.ts runs with zod's semantics (same accepted values, same
// output, same issue codes and paths). Anything the compiler does not know throws here, at
// build time, rather than being checked more loosely in the page.

export type Check =
  | ["min" | "max", number]
  | ["gt" | "lt", number, boolean]
  | ["int"]
  | ["trim"]
  | ["rule", RuleName, (string | number)[]];

export type SchemaNode =
  | { t: "string" | "number" | "boolean" | "unknown" | "never"; c?: Check[] }
  | { t: "literal" | "enum"; v: (string | number | boolean | null)[]; c?: Check[] }
  /** Fields as [key, node, optional]; `strict` refuses unknown keys, otherwise they are dropped. */
  | { t: "object"; f: [string, number, boolean][]; strict: boolean; c?: Check[] }
  | { t: "array"; e: number; c?: Check[] }
  | { t: "record"; v: number; c?: Check[] }
  | { t: "optional"; i: number; c?: Check[] }
  /** Discriminated union: the key, and each value it may hold → node. */
  | { t: "union"; d: string; m: [string | number | boolean | null, number][]; c?: Check[] };

export interface SchemaProgram {
  nodes: SchemaNode[];
  roots: Record<string, number>;
}

// Zod keeps a schema's definition under `_zod.def`; only the parts read here are typed.
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  [key: string]: unknown;
}
interface CheckDef {
  check: string;
  abort?: boolean;
  when?: unknown;
  [key: string]: unknown;
}
type Internals = { _zod: { def: Def; optin?: string; optout?: string; propValues?: unknown } };

const ruleNames = new Map<unknown, RuleName>(
  Object.entries(RULES).map(([name, fn]) => [fn, name as RuleName]),
);

function fail(what: string): never {
  throw new Error(`schemaProgram: ${what} cannot be compiled for the page`);
}

function hasLengthWhen(when: unknown): boolean {
  if (typeof when !== "function") return false;
  const runs = (value: unknown) => when({ value, issues: [] }) === true;
  return runs("ab") && runs([]) && !runs(1) && !runs(null) && !runs(undefined);
}

function compileCheck(def: CheckDef, type: string): Check | null {
  if (def.abort) fail("a check with abort");
  switch (def.check) {
    case "describe":
      return null; // metadata only
    case "min_length":
    case "max_length":
      // zod runs these with its default `when` (the value has a length); another one is unknown.
      if (!hasLengthWhen(def.when)) fail("a length check with its own `when`");
      return [
        def.check === "min_length" ? "min" : "max",
        (def.check === "min_length" ? def.minimum : def.maximum) as number,
      ];
    case "greater_than":
    case "less_than":
      if (typeof def.value !== "number") fail("a non-numeric bound");
      return [def.check === "greater_than" ? "gt" : "lt", def.value, def.inclusive === true];
    case "number_format":
      if (def.format !== "safeint") fail(`number format ${String(def.format)}`);
      return ["int"];
    case "overwrite": {
      const tx = def.tx as (value: string) => string;
      if (type !== "string" || tx(" a ") !== "a" || !/\.trim\(\)/.test(tx.toString())) {
        fail("an overwrite other than trim");
      }
      return ["trim"];
    }
    case "custom": {
      const name = ruleNames.get(def.fn);
      if (!name) fail("a refinement that is not in rules.ts");
      return ["rule", name, ((def.path as (string | number)[] | undefined) ?? []).slice()];
    }
    default:
      return fail(`check ${def.check}`);
  }
}

/** Compiles the named schemas into one program; shared sub-schemas become one node. */
export function compileSchemas(schemas: Record<string, z.ZodMiniType>): SchemaProgram {
  const nodes: SchemaNode[] = [];
  const seen = new Map<unknown, number>();

  const compile = (schema: unknown): number => {
    const known = seen.get(schema);
    if (known !== undefined) return known;
    const index = nodes.length;
    seen.set(schema, index);
    nodes.push({ t: "unknown" }); // placeholder while children compile
    const zod = (schema as Internals)._zod;
    const def = zod.def;
    const c = (def.checks ?? [])
      .map((check) => compileCheck(check._zod.def, def.type))
      .filter((check): check is Check => check !== null);
    const checks = c.length > 0 ? { c } : {};
    let node: SchemaNode;
    switch (def.type) {
      case "string":
      case "number":
      case "boolean":
      case "unknown":
      case "never":
        if (def.coerce) fail("coercion");
        node = { t: def.type, ...checks };
        break;
      case "literal":
        node = { t: "literal", v: (def.values as SchemaNode & { v: [] }["v"]).slice(), ...checks };
        break;
      case "enum": {
        const values = Object.values(def.entries as Record<string, unknown>);
        if (values.some((value) => typeof value !== "string")) fail("a non-string enum");
        node = { t: "enum", v: values as string[], ...checks };
        break;
      }
      case "object": {
        const catchall = (def.catchall as Internals | undefined)?._zod.def.type;
        if (catchall !== undefined && catchall !== "never") fail(`an object with ${catchall} rest`);
        const shape = def.shape as Record<string, Internals>;
        const f = Object.keys(shape).map((key): [string, number, boolean] => {
          const field = shape[key]!._zod;
          const optional = field.optin === "optional" && field.optout === "optional";
          if (!optional && (field.optin !== undefined || field.optout !== undefined)) {
            fail(`field ${key} with a default`);
          }
          return [key, compile(shape[key]), optional];
        });
        node = { t: "object", f, strict: catchall === "never", ...checks };
        break;
      }
      case "array":
        node = { t: "array", e: compile(def.element), ...checks };
        break;
      case "record": {
        const key = (def.keyType as Internals)._zod.def;
        if (key.type !== "string" || (key.checks?.length ?? 0) > 0 || def.mode === "loose") {
          fail("a record whose keys are not plain strings");
        }
        node = { t: "record", v: compile(def.valueType), ...checks };
        break;
      }
      case "optional":
        if ((def.innerType as Internals)._zod.optin === "defaulted") fail("a default");
        node = { t: "optional", i: compile(def.innerType), ...checks };
        break;
      case "union": {
        const discriminator = def.discriminator;
        if (typeof discriminator !== "string" || def.unionFallback) fail("a plain union");
        const m: [string | number | boolean | null, number][] = [];
        for (const option of def.options as Internals[]) {
          const values = (option._zod.propValues as Record<string, Set<unknown>>)[discriminator];
          const target = compile(option);
          for (const value of values ?? []) {
            if (value === undefined || (typeof value === "object" && value !== null)) {
              fail("a discriminator that may be absent");
            }
            m.push([value as string | number | boolean | null, target]);
          }
        }
        node = { t: "union", d: discriminator, m, ...checks };
        break;
      }
      default:
        return fail(`type ${def.type}`);
    }
    nodes[index] = node;
    return index;
  };

  const roots: Record<string, number> = {};
  for (const [name, schema] of Object.entries(schemas)) roots[name] = compile(schema);
  return shareEqualNodes({ nodes, roots });
}

/** The node with its children's indices passed through `to`. */
function renumbered(node: SchemaNode, to: (index: number) => number): SchemaNode {
  switch (node.t) {
    case "object":
      return { ...node, f: node.f.map(([key, child, optional]) => [key, to(child), optional]) };
    case "array":
      return { ...node, e: to(node.e) };
    case "record":
      return { ...node, v: to(node.v) };
    case "optional":
      return { ...node, i: to(node.i) };
    case "union":
      return { ...node, m: node.m.map(([value, child]) => [value, to(child)]) };
    default:
      return node;
  }
}

/**
 * Every `z.string()` is a schema object of its own: nodes that check the same thing become one,
 * a third fewer for the page to download before its first card (issue 15). Merged until nothing
 * changes, so parents of merged children merge too.
 */
function shareEqualNodes(program: SchemaProgram): SchemaProgram {
  let { nodes, roots } = program;
  for (;;) {
    const first = new Map<string, number>();
    const kept: SchemaNode[] = [];
    const target = nodes.map((node) => {
      const key = JSON.stringify(node);
      let index = first.get(key);
      if (index === undefined) {
        index = kept.push(node) - 1;
        first.set(key, index);
      }
      return index;
    });
    const to = (index: number) => target[index]!;
    roots = Object.fromEntries(Object.entries(roots).map(([name, index]) => [name, to(index)]));
    const merged = kept.length < nodes.length;
    nodes = kept.map((node) => renumbered(node, to));
    if (!merged) return { nodes, roots };
  }
}
