import program from "virtual:server-frame-program";
import type { ServerFrame, StoredEntry } from "../../protocol/index.ts";
import { runSchemaProgram } from "../../protocol/runSchemaProgram.ts";

// R2 with the protocol's own schemas, compiled at build time (scripts/serverFrameProgram.ts):
// the same checks as zod's safeParse without zod's parser in the page's first load (issue 15).
const parseFrame = (value: unknown) => runSchemaProgram<ServerFrame>(program, "ServerFrame", value);
const parseEntry = (value: unknown) => runSchemaProgram<StoredEntry>(program, "StoredEntry", value);

export type ServerFrameReading =
  | { ok: true; frame: ServerFrame; problems: string[] }
  | { ok: false; problem: string; detail?: unknown };

interface Issue {
  code: string;
  path: PropertyKey[];
  expected?: unknown;
}

/**
 * R2: decodes and validates one server frame. A frame that carries entries and fails only
 * because of some of them keeps the rest: each unreadable entry becomes an error notice at its
 * own seq, so the session still shows, nothing after it is dropped and no gap triggers a resync.
 */
export function readServerFrame(data: unknown): ServerFrameReading {
  const json = decode(data);
  return json.ok ? readFrameValue(json.value) : json;
}

/**
 * One WebSocket message: a frame, or a `batch` of them (ServerBatch, issue 15), each read on its
 * own so a bad one is dropped or salvaged alone (R2). In order, as the server produced them.
 */
export function readServerMessage(data: unknown): ServerFrameReading[] {
  const json = decode(data);
  if (!json.ok) return [json];
  const value = json.value;
  if (!isRecord(value) || value.type !== "batch") return [readFrameValue(value)];
  const { frames } = value;
  if (!Array.isArray(frames) || frames.length < 2 || Object.keys(value).length !== 2) {
    return [{ ok: false, problem: "dropped an invalid batch", detail: value }];
  }
  return frames.map(readFrameValue);
}

function decode(
  data: unknown,
): { ok: true; value: unknown } | { ok: false; problem: string; detail?: unknown } {
  if (typeof data !== "string") return { ok: false, problem: "dropped a binary frame" };
  try {
    return { ok: true, value: JSON.parse(data) };
  } catch (error) {
    return { ok: false, problem: "dropped a frame that is not JSON", detail: error };
  }
}

function readFrameValue(json: unknown): ServerFrameReading {
  const parsed = parseFrame(json);
  if (parsed.success) return { ok: true, frame: parsed.data, problems: [] };
  return (
    salvageEntries(json) ?? { ok: false, problem: "dropped an invalid frame", detail: parsed.error }
  );
}

function salvageEntries(json: unknown): ServerFrameReading | null {
  if (!isRecord(json)) return null;
  const problems: string[] = [];
  const repair = (item: unknown): StoredEntry | null => {
    const checked = parseEntry(item);
    if (checked.success) return checked.data;
    if (!isRecord(item) || !Number.isInteger(item.seq) || (item.seq as number) < 1) {
      problems.push(
        `An entry without a valid seq was dropped: ${describeIssues(checked.error.issues)}`,
      );
      return null;
    }
    const seq = item.seq as number;
    const kind =
      isRecord(item.entry) && typeof item.entry.kind === "string" ? item.entry.kind : "?";
    const text = `Entry ${seq} (${kind}) could not be read: ${describeIssues(checked.error.issues)}`;
    problems.push(text);
    const at = typeof item.at === "number" ? item.at : 0;
    return { seq, at, entry: { kind: "notice", level: "error", text } };
  };
  const repairAll = (items: unknown) =>
    Array.isArray(items) ? items.map(repair).filter((e): e is StoredEntry => e !== null) : items;
  let candidate: unknown;
  switch (json.type) {
    case "snapshot":
    case "history":
      candidate = {
        ...json,
        entries: repairAll(json.entries),
        ...(json.context === undefined ? {} : { context: repairAll(json.context) }),
      };
      break;
    case "event": {
      const stored = repair({ seq: json.seq, at: json.at, entry: json.entry });
      if (!stored) return null;
      candidate = { ...json, at: stored.at, entry: stored.entry };
      break;
    }
    default:
      return null;
  }
  const parsed = parseFrame(candidate);
  return parsed.success && problems.length > 0 ? { ok: true, frame: parsed.data, problems } : null;
}

function describeIssues(issues: readonly Issue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => {
      const where = issue.path.map(String).join(".") || "entry";
      const expected = issue.expected === undefined ? "" : ` (expected ${String(issue.expected)})`;
      return `${where}: ${issue.code}${expected}`;
    })
    .join("; ");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
