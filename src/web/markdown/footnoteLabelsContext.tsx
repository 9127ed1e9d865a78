import { createContext, type ReactNode, useContext, useMemo } from "react";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { ENGLISH_FOOTNOTE_LABELS, type FootnoteLabels } from "./footnoteLabels.ts";

const FootnoteLabelsContext = createContext<FootnoteLabels>(ENGLISH_FOOTNOTE_LABELS);

/** Every markdown text below reads its notes' labels in the page's language (R5). */
export function LocalizedFootnotes({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const labels = useMemo<FootnoteLabels>(
    () => ({
      heading: t("markdown.footnotes"),
      backTo: (reference) => t("markdown.backToReference", { reference }),
    }),
    [t],
  );
  return <FootnoteLabelsContext value={labels}>{children}</FootnoteLabelsContext>;
}

/** The page's footnote labels; English outside LocalizedFootnotes. */
export function useFootnoteLabels(): FootnoteLabels {
  return useContext(FootnoteLabelsContext);
}
