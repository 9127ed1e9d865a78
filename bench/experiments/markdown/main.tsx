// A page that renders the big plan the way the plan card does, and in candidate ways, so
// bench/experiments/markdownVariants.ts can time them side by side in Chromium.
import { startTransition, useEffect, useState } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { Markdown } from "../../../src/web/markdown/Markdown.tsx";
import "../../../src/web/styles/tokens.css";
import "../../../src/web/styles/base.css";
import "../../../src/web/questions/questions.css";

export type Variant = "whole" | "sections" | "progressive" | "contentVisibility" | "breakWord";

declare global {
  interface Window {
    renderPlan(plan: string, variant: Variant): Promise<{ first: number; whole: number }>;
    clearPlan(): void;
  }
}

/** Splits before each `## ` heading outside code fences: sections parse independently. */
function sections(plan: string): string[] {
  const parts: string[] = [];
  let current: string[] = [];
  let fenced = false;
  for (const line of plan.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    if (!fenced && line.startsWith("## ") && current.length > 0) {
      parts.push(current.join("\n"));
      current = [];
    }
    current.push(line);
  }
  parts.push(current.join("\n"));
  return parts;
}

function Progressive({ parts, onDone }: { parts: string[]; onDone(): void }) {
  const [shown, setShown] = useState(Math.min(2, parts.length));
  useEffect(() => {
    if (shown >= parts.length) {
      onDone();
      return;
    }
    const timer = setTimeout(() => startTransition(() => setShown((n) => n + 2)), 0);
    return () => clearTimeout(timer);
  }, [shown, parts.length, onDone]);
  return (
    <>
      {parts.slice(0, shown).map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: sections never reorder
        <Markdown key={index} text={part} />
      ))}
    </>
  );
}

const root = createRoot(document.getElementById("root")!);
const now = () => performance.now();
const nextFrame = () =>
  new Promise<number>((resolve) => requestAnimationFrame(() => resolve(now())));

window.clearPlan = () => flushSync(() => root.render(null));
window.renderPlan = async (plan, variant) => {
  const start = now();
  const className = `qreview-body${variant === "contentVisibility" ? " exp-cv" : ""}${variant === "breakWord" ? " exp-bw" : ""}`;
  if (variant === "progressive") {
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    flushSync(() =>
      root.render(
        <section className={className}>
          <Progressive parts={sections(plan)} onDone={() => done()} />
        </section>,
      ),
    );
    const first = (await nextFrame()) - start;
    await finished;
    return { first, whole: (await nextFrame()) - start };
  }
  flushSync(() =>
    root.render(
      <section className={className}>
        {variant === "sections" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: sections never reorder
          sections(plan).map((part, index) => <Markdown key={index} text={part} />)
        ) : (
          <Markdown text={plan} />
        )}
      </section>,
    ),
  );
  // Reading layout here makes the frame's layout part of the render, as the app's effects do.
  void document.body.scrollHeight;
  const painted = (await nextFrame()) - start;
  return { first: painted, whole: painted };
};

const style = document.createElement("style");
style.textContent = `
.exp-cv .markdown > * { content-visibility: auto; contain-intrinsic-size: auto 3em; }
.exp-bw .markdown { overflow-wrap: break-word; }
`;
document.head.append(style);
