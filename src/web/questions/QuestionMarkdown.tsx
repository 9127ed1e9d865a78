import { memo } from "react";
import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";

/**
 * Local stand-in for the shared Markdown component. Raw HTML is skipped and URLs go
 * through react-markdown's default safe transform (R5). Memoised: plans can be large.
 */
export const QuestionMarkdown = memo(function QuestionMarkdown({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={[remarkGfm]} skipHtml>
      {text}
    </ReactMarkdown>
  );
});
