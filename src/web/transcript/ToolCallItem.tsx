import { memo } from "react";
import type { SessionEntry } from "../../protocol/index.ts";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { formatToolInput, summarizeToolInput } from "./toolSummary.ts";

type EntryOf<K extends SessionEntry["kind"]> = Extract<SessionEntry, { kind: K }>;

/** W1: collapsed to the tool name and a hint; expanding shows input and result. */
export const ToolCallItem = memo(function ToolCallItem({
  call,
  result,
}: {
  call: EntryOf<"tool.call"> | null;
  result: EntryOf<"tool.result"> | null;
}) {
  const { t } = useTranslation();
  const name = call?.name ?? result?.name ?? "";
  const status = !result ? "running" : result.isError ? "error" : "ok";
  return (
    <details className={`entry entry-tool entry-tool--${status}`} data-testid="entry-tool">
      <summary>
        <span className="tool-name">{name}</span>
        {call ? <span className="tool-summary">{summarizeToolInput(call.input)}</span> : null}
        {status === "running" ? <span className="tool-badge">{t("tool.running")}</span> : null}
        {status === "error" ? (
          <span className="tool-badge tool-badge--error">{t("tool.failed")}</span>
        ) : null}
      </summary>
      <div className="tool-body">
        {call ? (
          <>
            <p className="tool-label">{t("tool.input")}</p>
            <pre className="tool-pre">
              {formatToolInput(call.input, (count) => t("tool.clipped", { count }))}
            </pre>
          </>
        ) : null}
        <p className="tool-label">{t("tool.output")}</p>
        {result ? (
          <pre className={result.isError ? "tool-pre tool-pre--error" : "tool-pre"}>
            {result.output === "" ? t("tool.emptyOutput") : result.output}
          </pre>
        ) : (
          <p className="tool-pending">{t("tool.noOutput")}</p>
        )}
      </div>
    </details>
  );
});
