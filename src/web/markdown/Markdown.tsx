import { lazy, memo, Suspense } from "react";
import "./markdown.css";

const loadRenderer = () => import("./MarkdownRenderer.tsx");
const MarkdownRenderer = lazy(loadRenderer);

/** Fetches the markdown chunk ahead of need, so it is ready when the first message arrives. */
export function prefetchMarkdown(): void {
  void loadRenderer();
}

/** Markdown from the model (R5); plain text shows until the parser chunk has loaded. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <Suspense fallback={<div className="markdown markdown-plain">{text}</div>}>
      <MarkdownRenderer text={text} />
    </Suspense>
  );
});
