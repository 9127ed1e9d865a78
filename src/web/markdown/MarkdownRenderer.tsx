import { memo, useEffect, useState } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { splitMarkdownBlocks } from "./splitBlocks.ts";

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

// Blocks rendered per step; the first step is the first screen, later steps yield in between.
const FIRST_STEP = 6;
const LATER_STEP = 4;

/**
 * Markdown from the model (R5): GFM, no raw HTML, only safe URLs, links open in a new tab.
 * Large texts are split at headings and rendered a few blocks per task so no task runs long;
 * each block is memoised on its own text so plan revisions reuse unchanged sections.
 */
export default memo(function MarkdownRenderer({ text }: { text: string }) {
  const blocks = splitMarkdownBlocks(text);
  const [shown, setShown] = useState(FIRST_STEP);
  useEffect(() => {
    if (shown >= blocks.length) return;
    // One step per macrotask, so the browser can paint and handle input in between.
    const timer = setTimeout(() => setShown(shown + LATER_STEP), 0);
    return () => clearTimeout(timer);
  }, [shown, blocks.length]);
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
