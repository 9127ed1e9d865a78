import { memo } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import "./markdown.css";

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

/**
 * Markdown from the model (R5): GFM, no raw HTML, only safe URLs, links open in a new tab.
 * Memoised on the text: plans can be large and parsing dominates rendering cost.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={plugins} components={components} skipHtml>
        {text}
      </ReactMarkdown>
    </div>
  );
});
