import { memo, useEffect, useMemo, useState } from "react";
import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { components } from "../../../src/web/markdown/renderMarkdown.tsx";
import { splitMarkdownBlocks } from "../../../src/web/markdown/splitBlocks.ts";

const plugins = [remarkGfm];

const Block = memo(function Block({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={plugins} components={components} skipHtml>
      {text}
    </ReactMarkdown>
  );
});

// Characters of markdown parsed per task: small steps keep each task well under 50 ms.
const STEP_CHARS = 2500;

function nextEnd(blocks: string[], start: number): number {
  let end = start;
  let chars = 0;
  while (
    end < blocks.length &&
    (end === start || chars + (blocks[end]?.length ?? 0) <= STEP_CHARS)
  ) {
    chars += blocks[end]?.length ?? 0;
    end += 1;
  }
  return end;
}

/**
 * Markdown from the model (R5): GFM, no raw HTML, only safe URLs, links open in a new tab.
 * Large texts are split at headings and rendered a few blocks per task so no task runs long;
 * each block is memoised on its own text so plan revisions reuse unchanged sections.
 */
export default memo(function MarkdownRenderer({ text }: { text: string }) {
  const blocks = useMemo(() => splitMarkdownBlocks(text), [text]);
  const [shown, setShown] = useState(() => nextEnd(blocks, 0));
  useEffect(() => {
    if (shown >= blocks.length) return;
    // One step per macrotask, so the browser can paint and handle input in between.
    const timer = setTimeout(() => setShown(nextEnd(blocks, shown)), 0);
    return () => clearTimeout(timer);
  }, [shown, blocks]);
  return (
    <div className="markdown">
      {blocks.slice(0, shown).map((block, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positional; text memo reuses work
        <div className="md-block" key={index}>
          <Block text={block} />
        </div>
      ))}
    </div>
  );
});
