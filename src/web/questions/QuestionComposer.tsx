import type { QuestionComposerProps } from "./types.ts";

// Placeholder until the question surfaces land; replaced by the real chooser.
export function QuestionComposer({ pending }: QuestionComposerProps) {
  return <section aria-label="question">{pending.request.interactionId}</section>;
}
