import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useAppStore } from "../store/store.ts";

export const COMPOSER_DRAFT_DEBOUNCE_MS = 400;

/**
 * W14: the message box's text, kept as a draft on the server the way question drafts are (X3):
 * it starts from the saved draft, saves edits debounced, and follows a draft typed in another
 * tab for as long as this box holds no edits of its own.
 */
export function useComposerDraft(sessionId: string, save: (text: string) => void) {
  const serverDraft = useAppStore((s) => s.views[sessionId]?.composerDraft ?? "");
  const [text, setShownText] = useState(serverDraft);
  const shown = useRef(serverDraft);
  const followed = useRef(serverDraft);
  const unsaved = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latestSave = useRef(save);
  useLayoutEffect(() => {
    latestSave.current = save;
  });

  const show = useCallback((next: string) => {
    shown.current = next;
    setShownText(next);
  }, []);

  useEffect(() => {
    const previous = followed.current;
    followed.current = serverDraft;
    if (unsaved.current === null && shown.current === previous) show(serverDraft);
  }, [serverDraft, show]);

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    const pending = unsaved.current;
    unsaved.current = null;
    if (pending !== null) latestSave.current(pending);
  }, []);

  const setText = useCallback(
    (next: string) => {
      show(next);
      unsaved.current = next;
      clearTimeout(timer.current);
      timer.current = setTimeout(flush, COMPOSER_DRAFT_DEBOUNCE_MS);
    },
    [flush, show],
  );

  /** After a send: the server drops the draft itself when the message arrives. */
  const clear = useCallback(() => {
    clearTimeout(timer.current);
    unsaved.current = null;
    show("");
  }, [show]);

  // Leaving the session (or the page's unmount) still saves what was typed.
  useEffect(() => flush, [flush]);

  return { text, setText, clear };
}
