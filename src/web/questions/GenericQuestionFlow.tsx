import {
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import type { QuestionAnswers, QuestionDraft, QuestionRequest } from "../../protocol/index.ts";
import { OfflineHint } from "../connection/OfflineHint.tsx";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { lazyComponent } from "../layout/lazyComponent.tsx";
import { Markdown } from "../markdown/Markdown.tsx";
import {
  answersOf,
  chooseOther,
  clearQuestion,
  draftOf,
  type FlowState,
  goToPage,
  initialFlowState,
  pickOption,
  typeOther,
} from "./flowState.ts";
import { ReceiptMessage } from "./ReceiptMessage.tsx";
import { ReviewSubmit } from "./ReviewSubmit.tsx";
import type { ReceiptView } from "./types.ts";
import { useClaimFocus } from "./useClaimFocus.ts";
import { useOneShotLatch } from "./useOneShotLatch.ts";
import { useQuestionActivity } from "./useQuestionActivity.ts";
import "./questions.css";

// W10's review page comes only after the last question: its own chunk, fetched after the first
// screen (issue 15). The footer's submit button, which takes the focus then, stays here.
const reviewPage = lazyComponent(() =>
  import("./ReviewPage.tsx").then((module) => module.ReviewPage),
);
const ReviewPage = reviewPage.Component;
export const prefetchReviewPage = reviewPage.prefetch;

export interface GenericQuestionFlowProps {
  request: QuestionRequest;
  draft?: QuestionDraft;
  receipt?: ReceiptView;
  /** Rendered in the header beside the chip, e.g. the countdown. */
  aside?: ReactNode;
  /** Accessible name of the × button; defaults to "Dismiss questions". */
  dismissLabel?: string;
  onSubmit(answers: QuestionAnswers): void;
  onCancel(): void;
  onTouch?(): void;
  onDraft?(draft: QuestionDraft): void;
}

function isTextEntry(target: EventTarget): boolean {
  if (target instanceof HTMLTextAreaElement) return true;
  return (
    target instanceof HTMLInputElement && target.type !== "radio" && target.type !== "checkbox"
  );
}

/**
 * Q6: the generic question flow. Escape deliberately does nothing: only × dismisses
 * the batch, so a stray key never throws away the user's picks. A batch of several
 * questions ends on a review page (W10), so a gap is never sent by accident.
 */
export function GenericQuestionFlow({
  request,
  draft,
  receipt,
  aside,
  dismissLabel,
  onSubmit,
  onCancel,
  onTouch,
  onDraft,
}: GenericQuestionFlowProps) {
  const { t } = useTranslation("question");
  const { questions } = request;
  const total = questions.length;
  const [state, setState] = useState<FlowState>(() => initialFlowState(questions, draft));
  const editedHere = useRef(false);
  const followedDraft = useRef(draft);
  const activity = useQuestionActivity({ onTouch, onDraft: onDraft ?? (() => {}) });
  const { latched, rejection, fire } = useOneShotLatch(receipt);
  const rootRef = useRef<HTMLElement>(null);
  const optionsRef = useRef<HTMLOListElement>(null);
  // The page whose options take focus once it is on screen. A page number, not a flag: an effect
  // left over from an earlier render can run first (Preact flushes it before the next render).
  const focusOptionsOfPage = useRef<number | null>(null);
  const [reviewing, setReviewing] = useState(false);
  const reviewSubmitRef = useRef<HTMLButtonElement>(null);
  const otherInputRef = useRef<HTMLInputElement>(null);
  const groupName = useId();
  useClaimFocus(rootRef);

  const page = state.page;
  const item = questions[page] ?? questions[0];
  const isLast = page >= total - 1;
  const endsOnReview = total > 1;

  useEffect(() => {
    if (reviewing) reviewSubmitRef.current?.focus();
  }, [reviewing]);

  useEffect(() => {
    if (reviewing || focusOptionsOfPage.current !== page) return;
    focusOptionsOfPage.current = null;
    const inputs = optionsRef.current?.querySelectorAll<HTMLInputElement>(
      "input[type=radio], input[type=checkbox]",
    );
    const list = inputs === undefined ? [] : [...inputs];
    (list.find((input) => input.checked) ?? list[0])?.focus();
  });

  // X3: a draft saved by another tab is followed live until this tab edits the card itself.
  useEffect(() => {
    if (draft === undefined || draft === followedDraft.current || editedHere.current) return;
    followedDraft.current = draft;
    setState(initialFlowState(questions, draft));
  }, [draft, questions]);

  const answers = useMemo(() => answersOf(questions, state), [questions, state]);

  if (item === undefined) return null;
  const key = item.question;
  const picks = state.picks[key] ?? [];
  const otherChosen = state.otherChosen[key] ?? false;
  const otherText = state.otherText[key] ?? "";
  const inputType = item.multiSelect ? "checkbox" : "radio";

  function update(next: FlowState) {
    editedHere.current = true;
    setState(next);
    activity.record(draftOf(next));
  }

  function goTo(target: number, focusOptions: boolean) {
    if (latched) return;
    if (reviewing) {
      setReviewing(false);
      focusOptionsOfPage.current = target;
      if (target !== page) update(goToPage(state, target, total));
      return;
    }
    if (target === page) return;
    focusOptionsOfPage.current = focusOptions ? target : null;
    update(goToPage(state, target, total));
  }

  function review() {
    if (!latched) setReviewing(true);
  }

  function submit(finalState: FlowState) {
    fire(() => {
      activity.discard();
      onSubmit(answersOf(questions, finalState));
    });
  }

  function advance() {
    if (latched || reviewing) return;
    if (!isLast) goTo(page + 1, true);
    else if (endsOnReview) review();
    else submit(state);
  }

  function skip() {
    if (latched || item === undefined) return;
    const cleared = clearQuestion(state, item);
    if (isLast) {
      if (endsOnReview) {
        update(cleared);
        review();
        return;
      }
      setState(cleared);
      submit(cleared);
      return;
    }
    focusOptionsOfPage.current = page + 1;
    update(goToPage(cleared, page + 1, total));
  }

  function dismiss() {
    fire(() => {
      activity.discard();
      onCancel();
    });
  }

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    // On the review page digits and Enter belong to its buttons, not to a hidden question.
    if (latched || reviewing || item === undefined) return;
    if (event.nativeEvent.isComposing || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (event.key === "Enter") {
      if (target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement) return;
      if (target instanceof HTMLTextAreaElement) return;
      event.preventDefault();
      advance();
      return;
    }
    if (isTextEntry(target) || !/^[1-9]$/.test(event.key)) return;
    const index = Number(event.key) - 1;
    event.preventDefault();
    if (index < item.options.length) {
      const option = item.options[index];
      if (option !== undefined) update(pickOption(state, item, option.label));
      optionsRef.current?.querySelectorAll<HTMLInputElement>("input")[index]?.focus();
    } else if (index === item.options.length) {
      update(chooseOther(state, item));
      otherInputRef.current?.focus();
    }
  }

  const answeredHere = answers[key] !== undefined;

  return (
    <section
      ref={rootRef}
      className="qcard qflow"
      aria-label={t("generic.region")}
      tabIndex={-1}
      onKeyDown={onKeyDown}
    >
      <header className="qflow-head">
        {!reviewing && <span className="qflow-chip">{item.header}</span>}
        {aside}
        <span className="qflow-head-spacer" />
        {total > 1 && (
          <span className="qflow-pager">
            <button
              type="button"
              className="qbtn qbtn--icon"
              aria-label={t("generic.previous")}
              disabled={latched || (page === 0 && !reviewing)}
              onClick={() => goTo(reviewing ? page : page - 1, false)}
            >
              ‹
            </button>
            <span className="qflow-pager-count">
              {reviewing ? t("review.button") : t("generic.pager", { current: page + 1, total })}
            </span>
            <button
              type="button"
              className="qbtn qbtn--icon"
              aria-label={t("generic.next")}
              disabled={latched || reviewing}
              onClick={() => (isLast ? review() : goTo(page + 1, false))}
            >
              ›
            </button>
          </span>
        )}
        <button
          type="button"
          className="qbtn qbtn--icon"
          aria-label={dismissLabel ?? t("generic.dismiss")}
          disabled={latched}
          onClick={dismiss}
        >
          ×
        </button>
      </header>

      {reviewing ? (
        <ReviewPage
          questions={questions}
          answers={answers}
          disabled={latched}
          onChange={(index) => goTo(index, true)}
        />
      ) : (
        <fieldset
          className="qflow-body qcard-scroll"
          disabled={latched}
          data-answered={answeredHere}
        >
          <legend className="qflow-question">{item.question}</legend>
          {item.detail !== undefined && item.detail !== "" && (
            <div className="qflow-detail">
              <Markdown text={item.detail} />
            </div>
          )}
          <p className="qflow-hint">
            {t(item.multiSelect ? "generic.pickAny" : "generic.pickOne")}
            <span className="qflow-keys-hint"> · {t("generic.keyboardHint")}</span>
          </p>
          <ol ref={optionsRef} className="qflow-options">
            {item.options.map((option, index) => {
              const id = `${groupName}-${page}-${index}`;
              const described = option.description ? `${id}-desc` : undefined;
              return (
                <li key={option.label} className="qflow-option">
                  <input
                    id={id}
                    type={inputType}
                    name={`${groupName}-${page}`}
                    checked={picks.includes(option.label)}
                    aria-describedby={described}
                    onChange={() => update(pickOption(state, item, option.label))}
                  />
                  <label htmlFor={id}>
                    <span className="qflow-num" aria-hidden="true">
                      {index + 1}
                    </span>
                    <span className="qflow-label">{option.label}</span>
                  </label>
                  {described !== undefined && (
                    <p id={described} className="qflow-desc">
                      {option.description}
                    </p>
                  )}
                </li>
              );
            })}
            <li className="qflow-option qflow-option--other">
              <input
                id={`${groupName}-${page}-other`}
                type={inputType}
                name={`${groupName}-${page}`}
                checked={otherChosen}
                onChange={() => {
                  update(chooseOther(state, item));
                  otherInputRef.current?.focus();
                }}
              />
              <label htmlFor={`${groupName}-${page}-other`}>
                <span className="qflow-num" aria-hidden="true">
                  {item.options.length + 1}
                </span>
                <span className="qflow-label">{t("generic.other")}</span>
              </label>
              <input
                ref={otherInputRef}
                type="text"
                className="qflow-other-text"
                aria-label={t("generic.otherInput")}
                placeholder={t("generic.otherPlaceholder")}
                maxLength={4000}
                value={otherText}
                onChange={(event) => update(typeOther(state, item, event.target.value))}
              />
            </li>
          </ol>
        </fieldset>
      )}

      <OfflineHint held={latched} />
      {rejection !== null && <ReceiptMessage rejection={rejection} />}

      <footer className="qcard-actions">
        {reviewing ? (
          <ReviewSubmit
            buttonRef={reviewSubmitRef}
            gaps={questions.length - Object.keys(answers).length}
            disabled={latched}
            onSubmit={() => submit(state)}
          />
        ) : (
          <>
            <button type="button" className="qbtn" disabled={latched} onClick={skip}>
              {t("generic.skip")}
            </button>
            {isLast && !endsOnReview ? (
              <button
                type="button"
                className="qbtn qbtn--primary"
                disabled={latched}
                onClick={() => submit(state)}
              >
                {t("generic.submit")}
              </button>
            ) : (
              <button
                type="button"
                className="qbtn qbtn--primary"
                disabled={latched}
                onClick={() => (isLast ? review() : goTo(page + 1, true))}
              >
                {t(isLast ? "review.button" : "generic.nextButton")}
              </button>
            )}
          </>
        )}
      </footer>
    </section>
  );
}
