/**
 * W11: "New session" hands the keyboard to the message box of the session it opens. That box
 * exists only once the server has made the session, so until then a stand-in box holds the
 * keyboard: what is typed there, and an Enter, reach the real box; and a Space no longer
 * presses "New session" a second time.
 */
export interface TypedAhead {
  text: string;
  /** Enter was pressed: send the text once the box is there. */
  send: boolean;
  /** The keyboard is still the stand-in's: the person did not move on to something else. */
  focused: boolean;
}

/** A session that does not come (the server failed it) gives the keyboard back after this. */
const STAND_IN_MS = 15_000;

let standIn: HTMLTextAreaElement | null = null;
let sendOnArrival = false;
let giveUp: ReturnType<typeof setTimeout> | undefined;

/** `label` names the stand-in as the message box it stands in for (screen readers hear it). */
export function requestComposerFocus(label: string): void {
  takeComposerFocusRequest();
  const box = document.createElement("textarea");
  box.className = "sr-only";
  box.setAttribute("aria-label", label);
  box.dataset.testid = "composer-stand-in";
  box.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    sendOnArrival = true;
  });
  document.body.append(box);
  box.focus({ preventScroll: true });
  standIn = box;
  sendOnArrival = false;
  giveUp = setTimeout(() => takeComposerFocusRequest(), STAND_IN_MS);
}

/** The request, with what was typed meanwhile; undefined when none is open. */
export function takeComposerFocusRequest(): TypedAhead | undefined {
  const box = standIn;
  if (box === null) return undefined;
  clearTimeout(giveUp);
  standIn = null;
  const active = document.activeElement;
  const focused = active === box || active === null || active === document.body;
  box.remove();
  return { text: box.value, send: sendOnArrival, focused };
}
