import { memo, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import type { PlanComment } from "../../../protocol/index.ts";
import { useTranslation } from "../../i18n/useTranslation.tsx";
import type { FollowUpStatus } from "./anchors.ts";

const excerpt = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

export function LinesLabel({ lines }: { lines: PlanComment["anchor"]["lines"] }) {
  const { t } = useTranslation("question");
  return (
    <span className="qcomment-lines">
      {lines.start === lines.end
        ? t("planReview.comments.line", { start: lines.start })
        : t("planReview.comments.lines", lines)}
    </span>
  );
}

interface EditorProps {
  quote: string;
  initial?: string;
  /** Why the last submit did not go through; the text is kept for another try. */
  error?: string | undefined;
  submitLabel: string;
  disabled: boolean;
  onSubmit(text: string): void;
  onCancel(): void;
}

/** V1: writing or editing one comment; Escape or Cancel leaves it unchanged. */
export function CommentEditor({
  quote,
  initial = "",
  error,
  submitLabel,
  disabled,
  onSubmit,
  onCancel,
}: EditorProps) {
  const { t } = useTranslation("question");
  const [text, setText] = useState(initial);
  const ref = useRef<HTMLTextAreaElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  // V1 budget: a focus without its scroll needs no layout in the click; the whole box (its
  // buttons too) is brought into view in the frame, with the layout that frame does anyway.
  // A textarea's focus lays the page out; in a layout effect it runs before the card layout's
  // (parents' effects run after their children's), so that one measures a page laid out already
  // instead of laying it out a second time after moving the cards.
  useLayoutEffect(() => {
    ref.current?.focus({ preventScroll: true });
    const frame = requestAnimationFrame(() =>
      boxRef.current?.scrollIntoView?.({ block: "nearest" }),
    );
    return () => cancelAnimationFrame(frame);
  }, []);
  const submit = () => {
    if (text.trim() !== "") onSubmit(text.trim());
  };
  return (
    <div className="qcomment-editor" ref={boxRef}>
      <label className="qcomment-editor-label">
        <span>{t("planReview.comments.label", { quote: excerpt(quote) })}</span>
        <textarea
          ref={ref}
          className="qcomment-text"
          rows={3}
          maxLength={4000}
          placeholder={t("planReview.comments.placeholder")}
          value={text}
          disabled={disabled}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Escape") {
              event.preventDefault();
              event.stopPropagation();
              onCancel();
            } else if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              submit();
            }
          }}
        />
      </label>
      {error !== undefined && (
        <p className="qcard-error" role="alert">
          {error}
        </p>
      )}
      <div className="qcomment-actions">
        <button type="button" className="qbtn qbtn--small" onClick={onCancel}>
          {t("planReview.comments.cancel")}
        </button>
        <button
          type="button"
          className="qbtn qbtn--small qbtn--primary"
          disabled={disabled || text.trim() === ""}
          onClick={submit}
        >
          {submitLabel}
        </button>
      </div>
    </div>
  );
}

interface CardProps {
  comment: PlanComment;
  disabled: boolean;
  onUpdate(id: string, text: string): void;
  onRemove(id: string): void;
}

/** V1: a comment beside its anchor, editable and removable until the review is sent. */
export const CommentCard = memo(function CommentCard({
  comment,
  disabled,
  onUpdate,
  onRemove,
}: CardProps) {
  const { t } = useTranslation("question");
  const [editing, setEditing] = useState(false);
  const editRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  // Leaving the editor (saved or cancelled) puts the keyboard back on Edit, not on the page.
  useEffect(() => {
    if (editing || !returnFocus.current) return;
    returnFocus.current = false;
    editRef.current?.focus({ preventScroll: true });
  }, [editing]);
  const stopEditing = () => {
    returnFocus.current = true;
    setEditing(false);
  };
  const quote = excerpt(comment.anchor.quote);
  // W5: "Edit" and "Remove" say which comment they act on when read out of context.
  const quoteId = useId();
  return (
    <article className="qcomment" aria-label={t("planReview.comments.cardName", { quote })}>
      <p className="qcomment-quote" id={quoteId}>
        <q>{quote}</q> <LinesLabel lines={comment.anchor.lines} />
      </p>
      {editing ? (
        <CommentEditor
          quote={comment.anchor.quote}
          initial={comment.text}
          submitLabel={t("planReview.comments.update")}
          disabled={disabled}
          onSubmit={(text) => {
            stopEditing();
            onUpdate(comment.id, text);
          }}
          onCancel={stopEditing}
        />
      ) : (
        <>
          <p className="qcomment-body">{comment.text}</p>
          <div className="qcomment-actions">
            <button
              ref={editRef}
              type="button"
              className="qbtn qbtn--link"
              aria-describedby={quoteId}
              disabled={disabled}
              onClick={() => setEditing(true)}
            >
              {t("planReview.comments.edit")}
            </button>
            <button
              type="button"
              className="qbtn qbtn--link"
              aria-describedby={quoteId}
              disabled={disabled}
              onClick={() => onRemove(comment.id)}
            >
              {t("planReview.comments.remove")}
            </button>
          </div>
        </>
      )}
    </article>
  );
});

/** V3: an earlier revision's comment, marked with what became of its place. */
export const EarlierCommentCard = memo(function EarlierCommentCard({
  comment,
  status,
  revision,
}: {
  comment: PlanComment;
  status: FollowUpStatus;
  revision: number;
}) {
  const { t } = useTranslation("question");
  const quote = excerpt(comment.anchor.quote);
  return (
    <article
      className="qcomment qcomment--earlier"
      data-status={status}
      aria-label={t("planReview.comments.cardName", { quote })}
    >
      <p className="qcomment-quote">
        <span className={`qcomment-status qcomment-status--${status}`}>
          {t(`planReview.comments.status.${status}`)}
        </span>{" "}
        <span className="qcomment-earlier">
          {t("planReview.comments.earlier", { number: revision })}
        </span>
      </p>
      <p className="qcomment-quote">
        <q>{quote}</q> <LinesLabel lines={comment.anchor.lines} />
      </p>
      <p className="qcomment-body">{comment.text}</p>
    </article>
  );
});
