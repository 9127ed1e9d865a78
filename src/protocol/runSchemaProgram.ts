import { RULES } from "./rules.ts";
import type { Check, SchemaNode, SchemaProgram } from "./schemaProgram.ts";

// Runs a compiled schema (schemaProgram.ts) the way zod's parser runs the schema it came from:
// the same values pass, the output is built the same way (unknown keys of a loose object
// dropped, trimmed strings trimmed) and failures carry zod's issue codes and paths. The order
// of checks and when a failed check stops the rest follow zod's `runChecks`.

export interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  expected?: string;
  /** zod's flag: an issue without it stops the checks that come after it. */
  continue?: boolean;
  keys?: string[];
}

export type SchemaResult<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: SchemaIssue[] } };

interface Payload {
  value: unknown;
  issues: SchemaIssue[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function aborted(payload: Payload, from = 0): boolean {
  for (let i = from; i < payload.issues.length; i++) {
    if (payload.issues[i]!.continue !== true) return true;
  }
  return false;
}

/** zod counts a string's length in code points (a surrogate pair is one), not UTF-16 units. */
function lengthOf(value: { length: number }): number {
  if (typeof value !== "string") return value.length;
  let count = value.length;
  for (let i = 0; i < value.length - 1; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

function prefixed(key: PropertyKey, issues: SchemaIssue[]): SchemaIssue[] {
  for (const issue of issues) issue.path.unshift(key);
  return issues;
}

function runCheck(check: Check, payload: Payload): void {
  const value = payload.value as never;
  const issue = (code: string, extra: Partial<SchemaIssue> = {}) =>
    payload.issues.push({ code, path: [], continue: true, ...extra });
  switch (check[0]) {
    case "min": {
      // A code point is one or two units: count them only where the units leave it open.
      const units = (value as string).length;
      if (units < check[1] || (units < check[1] * 2 && lengthOf(value) < check[1])) {
        issue("too_small");
      }
      return;
    }
    case "max":
      if ((value as string).length > check[1] && lengthOf(value) > check[1]) issue("too_big");
      return;
    case "gt":
      if (!(check[2] ? value >= check[1] : value > check[1])) issue("too_small");
      return;
    case "lt":
      if (!(check[2] ? value <= check[1] : value < check[1])) issue("too_big");
      return;
    case "int":
      if (!Number.isInteger(value)) issue("invalid_type", { expected: "int", continue: false });
      else if (!Number.isSafeInteger(value)) issue(value > 0 ? "too_big" : "too_small");
      return;
    case "trim":
      payload.value = (value as string).trim();
      return;
    case "rule":
      if (!RULES[check[1]](value)) issue("custom", { path: check[2].slice() });
      return;
  }
}

function runChecks(checks: Check[] | undefined, payload: Payload): Payload {
  if (!checks) return payload;
  let stopped = aborted(payload);
  for (const check of checks) {
    if (check[0] === "min" || check[0] === "max") {
      // Length checks carry zod's `when`: they run on anything with a length, unless an
      // earlier issue asked explicitly to stop.
      const value = payload.value as { length?: unknown } | null | undefined;
      if (payload.issues.some((issue) => issue.continue === false)) continue;
      if (value === null || value === undefined || value.length === undefined) continue;
    } else if (stopped) continue;
    const before = payload.issues.length;
    runCheck(check, payload);
    if (!stopped && payload.issues.length > before) stopped = aborted(payload, before);
  }
  return payload;
}

/** A strict object's own keys, built once per node rather than once per value. */
const fieldKeys = new WeakMap<SchemaNode, Set<string>>();
function keysOf(node: SchemaNode & { t: "object" }): Set<string> {
  let keys = fieldKeys.get(node);
  if (!keys) {
    keys = new Set(node.f.map(([key]) => key));
    fieldKeys.set(node, keys);
  }
  return keys;
}

/** Runs `child` on one element or field; its issues join `payload`'s under `key`. */
function runAt(
  nodes: SchemaNode[],
  child: number,
  value: unknown,
  key: PropertyKey,
  payload: Payload,
): Payload {
  const result = run(nodes, child, { value, issues: [] });
  if (result.issues.length > 0) payload.issues.push(...prefixed(key, result.issues));
  return result;
}

function fail(payload: Payload, expected: string): void {
  payload.issues.push({ code: "invalid_type", expected, path: [] });
}

function run(nodes: SchemaNode[], index: number, payload: Payload): Payload {
  const node = nodes[index]!;
  const input = payload.value;
  switch (node.t) {
    case "string":
    case "number":
    case "boolean":
      if (typeof input !== node.t || (node.t === "number" && !Number.isFinite(input as number))) {
        fail(payload, node.t);
      }
      break;
    case "unknown":
      break;
    case "never":
      fail(payload, "never");
      break;
    case "literal":
    case "enum":
      if (!node.v.includes(input as never))
        payload.issues.push({ code: "invalid_value", path: [] });
      break;
    case "optional":
      if (input !== undefined) run(nodes, node.i, payload);
      break;
    case "array": {
      if (!Array.isArray(input)) {
        fail(payload, "array");
        break;
      }
      // zod's capSize: an array over a leading max length fails that check alone, before any
      // element is read, and nothing after it runs.
      for (const check of node.c ?? []) {
        if (check[0] !== "min" && check[0] !== "max") break;
        if (check[0] === "max" && input.length > check[1]) {
          payload.issues.push({ code: "too_big", path: [], continue: false });
          return payload;
        }
      }
      const out = new Array(input.length);
      for (let i = 0; i < input.length; i++)
        out[i] = runAt(nodes, node.e, input[i], i, payload).value;
      payload.value = out;
      break;
    }
    case "record": {
      if (!isObject(input) || !isPlainPrototype(input)) {
        fail(payload, "record");
        break;
      }
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(input)) {
        if (key === "__proto__") continue;
        out[key] = runAt(nodes, node.v, input[key], key, payload).value;
      }
      payload.value = out;
      break;
    }
    case "object": {
      if (!isObject(input)) {
        fail(payload, "object");
        break;
      }
      const out: Record<string, unknown> = {};
      for (const [key, child, optional] of node.f) {
        if (key === "__proto__") continue;
        const present = key in input;
        // An absent optional field is skipped unread: running its (pure) schema adds nothing.
        if (!present && optional) continue;
        const result = runAt(nodes, child, input[key], key, payload);
        if (!present) {
          if (result.issues.length === 0) {
            payload.issues.push({ code: "invalid_type", expected: "nonoptional", path: [key] });
          }
          continue;
        }
        out[key] = result.value;
      }
      if (node.strict) {
        const known = keysOf(node);
        const keys: string[] = [];
        for (const key in input) if (!known.has(key)) keys.push(key);
        if (keys.length > 0) {
          payload.issues.push({ code: "unrecognized_keys", keys, path: [], continue: true });
        }
      }
      payload.value = out;
      break;
    }
    case "union": {
      if (!isObject(input)) {
        fail(payload, "object");
        break;
      }
      const tag = input[node.d];
      const option = node.m.find(([value]) => value === tag);
      if (option) run(nodes, option[1], payload);
      else payload.issues.push({ code: "invalid_union", path: [node.d] });
      break;
    }
  }
  return runChecks(node.c, payload);
}

/** zod's `isPlainObject`: an object literal or one without a prototype. */
function isPlainPrototype(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype;
}

/** Parses `value` against the program's root `name`, like zod's `safeParse`. */
export function runSchemaProgram<T>(
  program: SchemaProgram,
  name: string,
  value: unknown,
): SchemaResult<T> {
  const root = program.roots[name];
  if (root === undefined) throw new Error(`runSchemaProgram: no schema named ${name}`);
  const payload = run(program.nodes, root, { value, issues: [] });
  return payload.issues.length === 0
    ? { success: true, data: payload.value as T }
    : { success: false, error: { issues: payload.issues } };
}
