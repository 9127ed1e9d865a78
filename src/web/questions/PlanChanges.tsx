import { useMemo } from "react";
import { diffLines, foldUnchanged } from "../../shared/lineDiff.ts";
import { useTranslation } from "../i18n/useTranslation.tsx";
import "./planChanges.css";

/** X4: what changed between two revisions of a plan, line by line, unchanged runs folded. */
export function PlanChanges({ before, after }: { before: string; after: string }) {
  const { t } = useTranslation("question");
  const rows = useMemo(() => foldUnchanged(diffLines(before, after)), [before, after]);
  if (!rows.some((row) => row.op === "add" || row.op === "del")) {
    return <p className="qdiff-none">{t("planReview.noChanges")}</p>;
  }
  return (
    <div className="qdiff">
      {rows.map((row, index) => {
        // Rows are positional and never reorder, so the index is a stable key.
        const key = index;
        if (row.op === "skip") {
          return (
            <div key={key} className="qdiff-skip">
              {t("planReview.unchangedLines", { count: row.count })}
            </div>
          );
        }
        if (row.op === "add") {
          return (
            <ins key={key} className="qdiff-line qdiff-line--add">
              {row.text || " "}
            </ins>
          );
        }
        if (row.op === "del") {
          return (
            <del key={key} className="qdiff-line qdiff-line--del">
              {row.text || " "}
            </del>
          );
        }
        return (
          <div key={key} className="qdiff-line">
            {row.text || " "}
          </div>
        );
      })}
    </div>
  );
}
