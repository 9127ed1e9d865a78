import type {
  AskUserQuestionItem,
  QuestionAnswer,
  QuestionAnswers,
  QuestionDraft,
} from "../../protocol/index.ts";

/**
 * The generic flow's work in progress, keyed by question text like the answers are.
 * `otherChosen` is separate from `otherText` so switching a radio away keeps what was typed.
 */
export interface FlowState {
  page: number;
  picks: Record<string, string[]>;
  otherChosen: Record<string, boolean>;
  otherText: Record<string, string>;
}

function clampPage(page: number, total: number): number {
  return Math.min(Math.max(0, Math.trunc(page)), Math.max(0, total - 1));
}

export function initialFlowState(
  questions: readonly AskUserQuestionItem[],
  draft?: QuestionDraft,
): FlowState {
  const state: FlowState = { page: 0, picks: {}, otherChosen: {}, otherText: {} };
  if (draft === undefined) return state;
  state.page = clampPage(draft.page, questions.length);
  for (const item of questions) {
    const offered = new Set(item.options.map((option) => option.label));
    const picks = (draft.picks[item.question] ?? []).filter((label) => offered.has(label));
    state.picks[item.question] = item.multiSelect ? picks : picks.slice(0, 1);
    const other = draft.other[item.question];
    // A draft records custom text only while the Other row is chosen (see draftOf).
    if (other !== undefined) {
      state.otherChosen[item.question] = true;
      state.otherText[item.question] = other;
      if (!item.multiSelect) state.picks[item.question] = [];
    }
  }
  return state;
}

export function pickOption(state: FlowState, item: AskUserQuestionItem, label: string): FlowState {
  const key = item.question;
  if (!item.multiSelect) {
    return {
      ...state,
      picks: { ...state.picks, [key]: [label] },
      otherChosen: { ...state.otherChosen, [key]: false },
    };
  }
  const current = state.picks[key] ?? [];
  const next = current.includes(label)
    ? current.filter((picked) => picked !== label)
    : item.options.map((option) => option.label).filter((l) => l === label || current.includes(l));
  return { ...state, picks: { ...state.picks, [key]: next } };
}

export function chooseOther(state: FlowState, item: AskUserQuestionItem): FlowState {
  const key = item.question;
  const chosen = item.multiSelect ? !(state.otherChosen[key] ?? false) : true;
  return {
    ...state,
    picks: item.multiSelect ? state.picks : { ...state.picks, [key]: [] },
    otherChosen: { ...state.otherChosen, [key]: chosen },
  };
}

/** Typing a custom answer chooses the Other row, as a user would expect. */
export function typeOther(state: FlowState, item: AskUserQuestionItem, text: string): FlowState {
  const key = item.question;
  return {
    ...state,
    picks: item.multiSelect ? state.picks : { ...state.picks, [key]: [] },
    otherChosen: { ...state.otherChosen, [key]: true },
    otherText: { ...state.otherText, [key]: text },
  };
}

export function clearQuestion(state: FlowState, item: AskUserQuestionItem): FlowState {
  const key = item.question;
  return {
    ...state,
    picks: { ...state.picks, [key]: [] },
    otherChosen: { ...state.otherChosen, [key]: false },
  };
}

export function goToPage(state: FlowState, page: number, total: number): FlowState {
  return { ...state, page: clampPage(page, total) };
}

export function draftOf(state: FlowState): QuestionDraft {
  const picks: Record<string, string[]> = {};
  for (const [key, labels] of Object.entries(state.picks))
    if (labels.length > 0) picks[key] = labels;
  const other: Record<string, string> = {};
  for (const [key, chosen] of Object.entries(state.otherChosen))
    if (chosen) other[key] = (state.otherText[key] ?? "").slice(0, 4000);
  return { page: state.page, picks, other };
}

export function answerOf(state: FlowState, item: AskUserQuestionItem): QuestionAnswer | undefined {
  const key = item.question;
  const labels = state.picks[key] ?? [];
  const text = state.otherChosen[key] ? (state.otherText[key] ?? "").trim() : "";
  if (labels.length === 0 && text === "") return undefined;
  return text === "" ? { labels } : { labels, other: text };
}

/** Q6: unanswered and skipped questions are simply absent; `{}` is a legal batch answer. */
export function answersOf(
  questions: readonly AskUserQuestionItem[],
  state: FlowState,
): QuestionAnswers {
  const answers: QuestionAnswers = {};
  for (const item of questions) {
    const answer = answerOf(state, item);
    if (answer !== undefined) answers[item.question] = answer;
  }
  return answers;
}
