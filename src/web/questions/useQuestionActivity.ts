import { useCallback, useEffect, useLayoutEffect, useRef } from "react";
import type { QuestionDraft } from "../../protocol/index.ts";

export const DRAFT_DEBOUNCE_MS = 300;

interface ActivityCallbacks {
  /** A4: the first user operation pauses the countdown; later ones add nothing. */
  onTouch?: () => void;
  /** X3: drafts are saved on the server, debounced. */
  onDraft: (draft: QuestionDraft) => void;
}

/**
 * Reports user operations: touch once, drafts debounced. A draft still pending when the
 * card unmounts (e.g. switching sessions) is flushed; after an answer it is discarded.
 */
export function useQuestionActivity(callbacks: ActivityCallbacks) {
  const latest = useRef(callbacks);
  useLayoutEffect(() => {
    latest.current = callbacks;
  });
  const touched = useRef(false);
  const pending = useRef<QuestionDraft | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    const draft = pending.current;
    pending.current = null;
    if (draft !== null) latest.current.onDraft(draft);
  }, []);

  const record = useCallback(
    (draft: QuestionDraft) => {
      if (!touched.current) {
        touched.current = true;
        latest.current.onTouch?.();
      }
      pending.current = draft;
      clearTimeout(timer.current);
      timer.current = setTimeout(flush, DRAFT_DEBOUNCE_MS);
    },
    [flush],
  );

  const discard = useCallback(() => {
    clearTimeout(timer.current);
    pending.current = null;
  }, []);

  useEffect(() => flush, [flush]);

  return { record, discard };
}
