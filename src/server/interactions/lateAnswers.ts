import type { InteractionRequest, QuestionAnswers } from "../../protocol/index.ts";
import { checkAnswers } from "./answerCheck.ts";
import { SettledMemory } from "./outcomes.ts";
import type { LateAnswerReceipt } from "./port.ts";
import { lateAnswerText } from "./resultText.ts";

type QuestionRequest = Extract<InteractionRequest, { kind: "question" }>;

interface AutoResolved {
  readonly request: QuestionRequest;
  lateAnswered: boolean;
}

/** How many auto-continued questions stay open to a late answer (oldest forgotten first). */
const LATE_ANSWER_MEMORY = 10_000;

/** X2: what a second late answer to a question gets, whichever server it is sent to (S2). */
export const SECOND_LATE_ANSWER = {
  ok: false,
  code: "ALREADY_ANSWERED",
  message: "a late answer was already given",
} as const satisfies LateAnswerReceipt;

/** X2: questions that continued on their own (A3) and may get one late answer each. */
export class LateAnswers {
  private readonly autoResolved = new SettledMemory<AutoResolved>(LATE_ANSWER_MEMORY);

  remember(request: QuestionRequest, lateAnswered = false): void {
    this.autoResolved.set(request.interactionId, { request, lateAnswered });
  }

  has(interactionId: string): boolean {
    return this.autoResolved.get(interactionId) !== undefined;
  }

  accept(interactionId: string, answers: QuestionAnswers): LateAnswerReceipt | undefined {
    const auto = this.autoResolved.get(interactionId);
    if (!auto) return undefined;
    if (auto.lateAnswered) return SECOND_LATE_ANSWER;
    const checked = checkAnswers(auto.request.questions, answers);
    if (!checked.ok) return { ok: false, code: "INVALID_ANSWER", message: checked.message };
    if (Object.keys(checked.answers).length === 0) {
      return { ok: false, code: "INVALID_ANSWER", message: "a late answer must answer something" };
    }
    auto.lateAnswered = true;
    return {
      ok: true,
      sessionId: auto.request.sessionId,
      toolCallId: auto.request.toolCallId,
      questions: auto.request.questions,
      answers: checked.answers,
      text: lateAnswerText(auto.request.questions, checked.answers),
    };
  }

  release(interactionId: string): void {
    const auto = this.autoResolved.get(interactionId);
    if (auto) auto.lateAnswered = false;
  }

  get size(): number {
    return this.autoResolved.size;
  }
}
