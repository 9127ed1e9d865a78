import { createContext, type ReactNode, useContext, useId, useMemo } from "react";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { type FootnoteNaming, REMARK_FOOTNOTE_NAMING } from "./footnoteNaming.ts";

const FootnoteNamingContext = createContext<FootnoteNaming>(REMARK_FOOTNOTE_NAMING);

/** Every markdown text below names its notes in the page's language (R5). */
export function LocalizedFootnotes({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const naming = useMemo<FootnoteNaming>(
    () => ({
      heading: t("markdown.footnotes"),
      backTo: (reference) => t("markdown.backToReference", { reference }),
      scope: "",
    }),
    [t],
  );
  return <FootnoteNamingContext value={naming}>{children}</FootnoteNamingContext>;
}

/**
 * How the notes of the text a component draws are named: the page's language, and ids of its
 * own, so two texts with notes on one page never share an id (or a reference its description).
 */
export function useFootnoteNaming(): FootnoteNaming {
  const page = useContext(FootnoteNamingContext);
  const scope = `${useId().replace(/[^A-Za-z0-9]/g, "")}-`;
  return useMemo(() => ({ ...page, scope }), [page, scope]);
}
