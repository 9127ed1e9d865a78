import { useEffect, useRef } from "react";
import { appStore, useAppStore } from "../store/store.ts";

/** A refusal this soon after sending is this message's: the server answers frames in order, at once. */
const REFUSAL_WINDOW_MS = 10_000;

interface SentMessage {
  text: string;
  at: number;
  /** The error shown when it was sent: only a newer one can be its refusal. */
  errorBefore: unknown;
}

/**
 * R3: a message the server refused (its log could not be written) comes back into the box,
 * when the box is still empty, so the person's text is never lost with the refusal. Returns
 * what the composer calls with the text it has just sent.
 */
export function useRefusedPromptBack(text: string, setText: (text: string) => void) {
  const sent = useRef<SentMessage | null>(null);
  const lastError = useAppStore((s) => s.lastError);
  useEffect(() => {
    const last = sent.current;
    if (last === null || lastError === last.errorBefore || lastError?.ref !== "prompt") return;
    sent.current = null;
    if (performance.now() - last.at <= REFUSAL_WINDOW_MS && text.trim() === "") setText(last.text);
  }, [lastError, text, setText]);
  return (sentText: string) => {
    sent.current = {
      text: sentText,
      at: performance.now(),
      errorBefore: appStore.getState().lastError,
    };
  };
}
