import { type ComponentType, lazy, memo, Suspense } from "react";
import "./markdown.css";

type Renderer = ComponentType<{ text: string }>;

// Once the chunk is in, render it directly: a lazy() boundary would still suspend once per mount.
let loadedRenderer: Renderer | null = null;
const loadRenderer = () =>
  import("./MarkdownRenderer.tsx").then((module) => {
    // Compile the parser while idle, not while the first big plan waits for it.
    if (!loadedRenderer) setTimeout(module.warmUpMarkdown, 0);
    loadedRenderer = module.default;
    return module;
  });
const Plain: Renderer = ({ text }) => <div className="markdown markdown-plain">{text}</div>;
// A failed fetch shows the text plain rather than throwing the card away; a later successful
// load (loadedRenderer) is used from the next render on.
const LazyRenderer = lazy(() =>
  loadRenderer().then(
    (module): { default: Renderer } => module,
    () => ({ default: Plain }),
  ),
);

/** Whether the markdown chunk is in, so a Markdown renders at once, not as plain text first. */
export function markdownLoaded(): boolean {
  return loadedRenderer !== null;
}

/** Loads the markdown chunk now; component tests use it so their renders are synchronous. */
export function prefetchMarkdown(): Promise<unknown> {
  return loadRenderer();
}

/**
 * Markdown from the model (R5); plain text shows until the parser chunk has loaded, and for a
 * text with a rare `&name;`, until the full entity table has (MarkdownRenderer).
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const Renderer = loadedRenderer ?? LazyRenderer;
  return (
    <Suspense fallback={<Plain text={text} />}>
      <Renderer text={text} />
    </Suspense>
  );
});
