import { z } from "zod";
import type { CatalogEntry, ModelCatalog } from "../models/catalog.ts";
import type { ToolContract, ToolResult } from "./contract.ts";

export const LIST_MODELS_MAX_BYTES = 24_000;
export const LIST_MODELS_TIMEOUT_MS = 10_000;
export const MODEL_CATALOG_UNAVAILABLE = { code: 31, name: "model_catalog_unavailable" } as const;

const ListModelsInput = z.strictObject({});
type ListModelsInput = z.infer<typeof ListModelsInput>;

const description =
  "List the models this host can run, one per line: the id to use (provider/model), the " +
  "provider's name, the reasoning levels a model accepts with its default, and its context " +
  "window. The model of this session is marked [current]; a model that cannot be used now is " +
  "marked [disabled: why]. A reasoning level is chosen by appending $level to an id. The list " +
  "is read fresh each time. Calling this tool never changes the model you run on: the session " +
  "model is the user's choice, made in the model picker of the web page.";

/** M2, with the timeout injectable so a test need not wait ten seconds. */
export function createListModelsTool(
  options: { timeoutMs?: number } = {},
): ToolContract<ListModelsInput> {
  const timeoutMs = options.timeoutMs ?? LIST_MODELS_TIMEOUT_MS;
  return {
    name: "ListModels",
    description,
    inputSchema: ListModelsInput,
    readOnly: true,
    destructive: false,
    async run(_input, context): Promise<ToolResult> {
      const { catalog } = context;
      if (catalog === undefined) {
        const { code, name } = MODEL_CATALOG_UNAVAILABLE;
        return {
          output:
            `Error ${code} (${name}): this host does not offer a model catalog, so the models ` +
            "it can run cannot be listed here. That is a missing capability of the host, not a " +
            "sign that no model is configured.",
          isError: true,
        };
      }
      const listed = await listWithin(catalog, timeoutMs, context.signal);
      if (!listed.ok) return { output: listed.message, isError: true };
      return { output: formatModelList(listed.entries, context.currentModel?.()) };
    },
  };
}

export const listModelsTool = createListModelsTool();

async function listWithin(
  catalog: ModelCatalog,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<{ ok: true; entries: CatalogEntry[] } | { ok: false; message: string }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  const stopped = new Promise<{ ok: false; message: string }>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          ok: false,
          message: `The model catalog did not answer within ${timeoutMs / 1000} seconds.`,
        }),
      timeoutMs,
    );
    onAbort = () => resolve({ ok: false, message: "Listing the models was cancelled." });
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([
      catalog.list().then(
        (entries) => ({ ok: true as const, entries }),
        (error: unknown) => ({
          ok: false as const,
          message: `The model catalog could not be read: ${error instanceof Error ? error.message : String(error)}`,
        }),
      ),
      stopped,
    ]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}

/** One line per model, cut to the byte budget with a note saying how many were left out. */
export function formatModelList(
  entries: readonly CatalogEntry[],
  currentModel: string | undefined,
  maxBytes = LIST_MODELS_MAX_BYTES,
): string {
  if (entries.length === 0) return "The catalog lists no models.";
  const current = currentModel?.split("$")[0]?.trim().toLowerCase();
  const header = `${entries.length} model${entries.length === 1 ? "" : "s"} (id | provider | reasoning | context):`;
  const lines = [header];
  let bytes = Buffer.byteLength(header, "utf8");
  // Room kept for the truncation note, so the note itself never breaks the budget.
  const noteRoom = 120;
  for (const [index, entry] of entries.entries()) {
    const line = formatEntry(entry, entry.ref.toLowerCase() === current);
    const lineBytes = Buffer.byteLength(line, "utf8") + 1;
    const isLast = index === entries.length - 1;
    if (bytes + lineBytes + (isLast ? 0 : noteRoom) > maxBytes) {
      const left = entries.length - index;
      lines.push(
        `… ${left} more model${left === 1 ? "" : "s"} not shown: the list was cut at ${maxBytes} bytes.`,
      );
      break;
    }
    lines.push(line);
    bytes += lineBytes;
  }
  return lines.join("\n");
}

function formatEntry(entry: CatalogEntry, isCurrent: boolean): string {
  const reasoning =
    entry.reasoningLevels.length === 0
      ? "no reasoning levels"
      : `reasoning ${entry.reasoningLevels.join(", ")}${
          entry.defaultReasoningLevel === undefined
            ? ""
            : ` (default ${entry.defaultReasoningLevel})`
        }`;
  const context =
    entry.contextWindow === undefined
      ? "context unknown"
      : `context ${entry.contextWindow.toLocaleString("en-US")} tokens`;
  const marks = [
    isCurrent ? "[current]" : "",
    entry.disabled === undefined ? "" : `[disabled: ${entry.disabled}]`,
  ].filter((mark) => mark !== "");
  return [`${entry.ref} | ${entry.providerName} | ${reasoning} | ${context}`, ...marks].join(" ");
}
