// A page that renders the big plan as the plan card does, with the app's renderer and with the
// react-markdown one it replaced, so bench/experiments/markdownVariants.ts can time them side by
// side in Chromium.
import type { ReactNode } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import MarkdownRenderer from "../../../src/web/markdown/MarkdownRenderer.tsx";
import ReactMarkdownRenderer from "./ReactMarkdownRenderer.tsx";
import "../../../src/web/styles/tokens.css";
import "../../../src/web/styles/base.css";
import "../../../src/web/questions/questions.css";
import "../../../src/web/markdown/markdown.css";

export type Variant = "reactMarkdown" | "markdownIt";

const renderers: Record<Variant, (text: string) => ReactNode> = {
  reactMarkdown: (text) => <ReactMarkdownRenderer text={text} />,
  markdownIt: (text) => <MarkdownRenderer text={text} />,
};

declare global {
  interface Window {
    renderPlan(
      plan: string,
      variant: Variant,
      endMarker: string,
      className?: string,
    ): Promise<{ first: number; whole: number }>;
    clearPlan(): void;
  }
}

const container = document.getElementById("root") as HTMLElement;
const root = createRoot(container);
const now = () => performance.now();
const nextFrame = () =>
  new Promise<number>((resolve) => requestAnimationFrame(() => resolve(now())));

/** Resolves when the last rendered block holds `marker`. */
function blockWith(marker: string): Promise<void> {
  return new Promise((resolve) => {
    const found = () =>
      container.querySelector(".md-block:last-child")?.textContent?.includes(marker);
    if (found()) return resolve();
    const observer = new MutationObserver(() => {
      if (!found()) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(container, { childList: true, subtree: true });
  });
}

window.clearPlan = () => flushSync(() => root.render(null));
window.renderPlan = async (plan, variant, endMarker, className = "") => {
  const start = now();
  const done = blockWith(endMarker);
  flushSync(() =>
    root.render(
      <section className={`qreview-body ${className}`}>{renderers[variant](plan)}</section>,
    ),
  );
  const first = (await nextFrame()) - start;
  await done;
  return { first, whole: (await nextFrame()) - start };
};

// Candidate style changes, switched on per run by a class on the plan body.
const style = document.createElement("style");
style.textContent = `
.exp-bw .markdown { overflow-wrap: break-word; }
.exp-novf .markdown pre, .exp-novf .markdown .md-table-scroll { overflow-x: visible; }
`;
document.head.append(style);
