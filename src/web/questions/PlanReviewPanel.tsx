import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from "react";
import type {
  PlanApproveOption,
  PlanComment,
  QuestionAnswer,
  QuestionAnswers,
  QuestionDraft,
} from "../../protocol/index.ts";
import { MAX_PLAN_CHARS } from "../../protocol/index.ts";
import { OfflineHint } from "../connection/OfflineHint.tsx";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { ApproveOptions } from "./ApproveOptions.tsx";
import { AskAboutPlan } from "./AskAboutPlan.tsx";
import { changeCounts } from "./changeSummary.ts";
import { type FollowUpSummary, PlanCommentSurface } from "./comments/PlanCommentSurface.tsx";
import { PlanChanges } from "./PlanChanges.tsx";
import type { PlanReview } from "./planReviewOf.ts";
import { ReceiptMessage } from "./ReceiptMessage.tsx";
import { ToolButton } from "./ToolButton.tsx";
import type { ReceiptView } from "./types.ts";
import { useClaimFocus } from "./useClaimFocus.ts";
import { useOneShotLatch } from "./useOneShotLatch.ts";
import { useQuestionActivity } from "./useQuestionActivity.ts";
import "./questions.css";
import "./planReview.css";

/** The server's own review tools ask in fixed English; the page speaks for them in the user's language. */
const BUILT_IN_REVIEW_TOOLS = new Set(["ExitPlanMode", "review_plan"]);

export interface PlanReviewPanelProps {
  review: PlanReview;
  /** The tool that asked; its own copy is localised when it is a built-in review. */
  toolName?: string;
  draft?: QuestionDraft;
  receipt?: ReceiptView;
  onAnswer(answers: QuestionAnswers): void;
  onCancel(): void;
  onDraft?(draft: QuestionDraft): void;
  focusComposer(): void;
}

/**
 * I5–I7: a plan review is one decision over one document, drawn as an approval card.
 * No single-key shortcuts: nothing here may approve by accident.
 */
export function PlanReviewPanel({
  review,
  toolName,
  draft,
  receipt,
  onAnswer,
  onCancel,
  onDraft,
  focusComposer,
}: PlanReviewPanelProps) {
  const { t } = useTranslation("question");
  const { question, plan, approve, refuse, revision } = review;
  const previous = revision?.previous;
  const [showChanges, setShowChanges] = useState(false);
  const [optionsOpen, setOptionsOpen] = useState(false);
  const [approveOption, setApproveOption] = useState<PlanApproveOption>("default");
  const [editing, setEditing] = useState(false);
  const [editedText, setEditedText] = useState(plan);
  const edited = editedText.trim() !== "" && editedText !== plan;
  const counts = useMemo(
    () => (previous === undefined ? undefined : changeCounts(previous.plan, plan)),
    [previous, plan],
  );
  const unchanged = counts !== undefined && counts.added + counts.removed === 0;
  const [feedback, setFeedback] = useState(draft?.feedback ?? "");
  const [feedbackOpen, setFeedbackOpen] = useState(feedback.trim() !== "");
  const [comments, setComments] = useState<PlanComment[]>(draft?.comments ?? []);
  const [followUpSummary, setFollowUpSummary] = useState<FollowUpSummary | null>(null);
  const onFollowUp = useCallback((summary: FollowUpSummary) => setFollowUpSummary(summary), []);
  const earlierComments = previous?.comments;
  const earlier = useMemo(
    () =>
      earlierComments !== undefined && earlierComments.length > 0 && revision !== undefined
        ? { comments: earlierComments, revision: revision.number - 1 }
        : undefined,
    [earlierComments, revision],
  );
  const followedDraft = useRef(draft);
  const editedHere = useRef(false);
  const { latched, rejection, fire } = useOneShotLatch(receipt);
  const activity = useQuestionActivity({ onDraft: onDraft ?? (() => {}) });
  const bodyRef = useRef<HTMLElement>(null);
  const feedbackId = useId();
  const keysHintId = useId();
  const feedbackRef = useRef<HTMLTextAreaElement>(null);
  const focusFeedback = useRef(false);
  const builtIn = toolName !== undefined && BUILT_IN_REVIEW_TOOLS.has(toolName);
  const cardName = builtIn ? t("planReview.cardName") : question.question;
  // An agent over MCP (X1) has no plan mode of plangate's to leave or stay in.
  const hints = toolName === "review_plan" ? "planReview.agent" : "planReview";
  const approveHint = builtIn ? t(`${hints}.approveHint`) : approve.description || undefined;
  const requestChanges =
    comments.length > 0 ? t("planReview.requestChanges", { count: comments.length }) : undefined;
  const refuseHint = builtIn ? t(`${hints}.refuseHint`) : refuse?.description || undefined;
  // The plan body, not a button, takes focus: Enter on a focused Approve would be an accident.
  useClaimFocus(bodyRef);

  // X3: feedback typed in another tab is followed live until this tab edits it itself.
  useEffect(() => {
    if (draft === undefined || draft === followedDraft.current || editedHere.current) return;
    followedDraft.current = draft;
    const text = draft.feedback ?? "";
    setFeedback(text);
    if (text.trim() !== "") setFeedbackOpen(true);
    setComments(draft.comments ?? []);
  }, [draft]);

  // I7: opening the feedback puts the caret in it, so typing lands there.
  useLayoutEffect(() => {
    if (!feedbackOpen || !focusFeedback.current) return;
    focusFeedback.current = false;
    feedbackRef.current?.focus();
  }, [feedbackOpen]);

  function answer(label: string, extra: Omit<QuestionAnswer, "labels">) {
    fire(() => {
      activity.discard();
      onAnswer({ [question.question]: { labels: [label], ...extra } });
    });
  }

  // V2: the comments ride with Refuse ("request changes") and with an approval (V4).
  const inPlanOrder = [...comments].sort((a, b) => a.anchor.lines.start - b.anchor.lines.start);
  const withComments = comments.length > 0 ? { comments: inPlanOrder } : {};

  function typedFeedback(): { other?: string } {
    const text = feedback.trim();
    return text === "" ? {} : { other: text };
  }

  function onRefuse() {
    if (refuse === undefined) return;
    answer(refuse.label, {
      ...typedFeedback(),
      ...(comments.length > 0 ? { review: withComments } : {}),
    });
  }

  // V4 + V5 + V8: notes ride with the approval, with the chosen option and the revision seen.
  function onApprove() {
    const hash = revision?.contentHash;
    answer(approve.label, {
      ...typedFeedback(),
      review: {
        option: approveOption,
        ...withComments,
        ...(hash === undefined ? {} : { planHash: hash }),
        ...(edited ? { editedPlan: editedText } : {}),
      },
    });
  }

  // V7: the question travels as the answer's text with no label: no verdict is given.
  function onAsk(text: string) {
    fire(() => {
      activity.discard();
      onAnswer({ [question.question]: { labels: [], other: text, review: { ask: true } } });
    });
  }

  function onChat() {
    fire(() => {
      activity.discard();
      onCancel();
      focusComposer();
    });
  }

  function saveDraft(text: string, withThese: PlanComment[]) {
    editedHere.current = true;
    activity.record({
      page: 0,
      picks: {},
      other: {},
      feedback: text,
      ...(withThese.length > 0 ? { comments: withThese } : {}),
    });
  }

  function onFeedbackChange(text: string) {
    setFeedback(text);
    saveDraft(text, comments);
  }

  function onCommentsChange(next: PlanComment[]) {
    setComments(next);
    saveDraft(feedback, next);
  }

  return (
    <section className="qcard qreview" aria-label={cardName}>
      <div className="qcard-strip qcard-strip--amber">
        {t("planReview.strip")}
        {revision !== undefined && revision.number > 1 && (
          <span className="qreview-revision-number">
            {t("planReview.revision", { number: revision.number })}
          </span>
        )}
      </div>
      {previous !== undefined && revision !== undefined && (
        <div className="qreview-revision">
          {previous.feedback.length > 0 && (
            <div className="qreview-previous-feedback">
              <span>{t("planReview.previousFeedback", { number: revision.number - 1 })}</span>
              <ul>
                {previous.feedback.map((text) => (
                  <li key={text}>{text}</li>
                ))}
              </ul>
            </div>
          )}
          {earlier !== undefined && followUpSummary !== null && (
            <span className="qcomments-addressed">
              {t("planReview.comments.addressed", {
                addressed: followUpSummary.addressed,
                count: followUpSummary.total,
              })}
            </span>
          )}
          {counts !== undefined && (
            <span className="qreview-change-summary">
              {unchanged
                ? t("planReview.unchangedSince", { number: revision.number - 1 })
                : t("planReview.changeSummary", { ...counts, number: revision.number - 1 })}
            </span>
          )}
          {/* An unchanged revision has no changes to show. */}
          {unchanged ? null : (
            <button
              type="button"
              className="qbtn qbtn--link"
              aria-pressed={showChanges}
              onClick={() => setShowChanges((shown) => !shown)}
            >
              {t("planReview.showChanges", { number: revision.number - 1 })}
            </button>
          )}
        </div>
      )}
      <section
        ref={bodyRef}
        className="qreview-body qcard-scroll"
        aria-label={t("planReview.body")}
        aria-describedby={editing ? undefined : keysHintId}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so keyboard users can scroll it
        tabIndex={0}
      >
        {editing ? (
          <textarea
            className="qreview-edit-text"
            aria-label={t("planReview.editLabel")}
            rows={18}
            maxLength={MAX_PLAN_CHARS}
            spellCheck={false}
            value={editedText}
            disabled={latched}
            onChange={(event) => setEditedText(event.target.value)}
          />
        ) : showChanges && previous !== undefined ? (
          <PlanChanges before={previous.plan} after={plan} />
        ) : (
          <PlanCommentSurface
            plan={plan}
            comments={comments}
            earlier={earlier}
            disabled={latched}
            regionRef={bodyRef}
            onChange={onCommentsChange}
            onFollowUp={onFollowUp}
          />
        )}
      </section>
      <p id={keysHintId} className="sr-only">
        {t("planReview.comments.keyboardHint")}
      </p>

      {/* W6: the disclosures share one row (a phone shows their short labels), an open one its own. */}
      <div className="qreview-tools">
        <div className="qreview-edit">
          <ToolButton
            label={t("planReview.editPlan")}
            short={t("planReview.editPlanShort")}
            aria-pressed={editing}
            disabled={latched}
            onClick={() => setEditing((on) => !on)}
          />
          {edited && <span className="qreview-edited-mark">{t("planReview.editedMark")}</span>}
        </div>

        {refuse !== undefined && (
          <div className="qreview-feedback">
            <ToolButton
              label={t(feedbackOpen ? "planReview.hideFeedback" : "planReview.addFeedback")}
              short={feedbackOpen ? undefined : t("planReview.addFeedbackShort")}
              aria-expanded={feedbackOpen}
              aria-controls={feedbackId}
              onClick={() => {
                focusFeedback.current = !feedbackOpen;
                setFeedbackOpen(!feedbackOpen);
              }}
            />
            <div id={feedbackId} hidden={!feedbackOpen}>
              <label className="qreview-feedback-label">
                <span>{t("planReview.feedbackLabel")}</span>
                <textarea
                  ref={feedbackRef}
                  className="qreview-feedback-text"
                  rows={3}
                  maxLength={4000}
                  placeholder={t("planReview.feedbackPlaceholder")}
                  value={feedback}
                  disabled={latched}
                  onChange={(event) => onFeedbackChange(event.target.value)}
                />
              </label>
            </div>
          </div>
        )}

        <AskAboutPlan disabled={latched} onAsk={onAsk} />

        <ApproveOptions
          open={optionsOpen}
          chosen={approveOption}
          disabled={latched}
          onToggle={() => setOptionsOpen((open) => !open)}
          onChoose={setApproveOption}
        />
      </div>

      <OfflineHint held={latched} />
      {rejection !== null && <ReceiptMessage rejection={rejection} />}

      <div className="qcard-actions">
        <button type="button" className="qbtn" disabled={latched} onClick={onChat}>
          {t("planReview.chat")}
        </button>
        {refuse !== undefined && (
          // U2: with comments, a phone shows the short label (planReview.css); the name keeps
          // the count.
          <button
            type="button"
            className="qbtn"
            title={refuseHint}
            disabled={latched}
            onClick={onRefuse}
            aria-label={requestChanges}
            data-short={requestChanges && t("planReview.requestChangesShort")}
          >
            {requestChanges ? <span>{requestChanges}</span> : t("planReview.refuse")}
          </button>
        )}
        <button
          type="button"
          className="qbtn qbtn--primary"
          title={approveHint}
          disabled={latched}
          onClick={onApprove}
        >
          {approveOption === "default"
            ? t("planReview.approve")
            : t(`planReview.option.${approveOption}`)}
        </button>
      </div>
    </section>
  );
}
