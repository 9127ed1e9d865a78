import { memo, useEffect, useMemo, useState } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { splitMarkdownBlocks } from "../../../src/web/markdown/splitBlocks.ts";

const plugins = [remarkGfm];

const components: Components = {
  a({ node: _node, href, children, ...rest }) {
    // The default urlTransform blanks unsafe URLs (javascript:, data:…); show those as text.
    if (!href) return <span className="md-unsafe-link">{children}</span>;
    return (
      <a {...rest} href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  },
  table({ node: _node, ...rest }) {
    return (
      <div className="md-table-scroll">
        <table {...rest} />
      </div>
    );
  },
  img({ node: _node, src, alt, ...rest }) {
    if (!src) return <span>{alt}</span>;
    return <img {...rest} src={src} alt={alt ?? ""} loading="lazy" referrerPolicy="no-referrer" />;
  },
};

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
