/**
 * W11: "New session" asks for the message box of the session it opens; the box takes the
 * request when it mounts. A flag, not an event: the box does not exist yet at the click.
 */
let requested = false;

export function requestComposerFocus(): void {
  requested = true;
}

export function takeComposerFocusRequest(): boolean {
  const was = requested;
  requested = false;
  return was;
}
