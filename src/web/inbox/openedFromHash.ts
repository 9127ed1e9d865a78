/** U3: `#/inbox/<interactionId>` (where a notification lands) names the card to open. */
export function openedFromHash(hash: string): string | null {
  const match = /^#\/inbox\/(.+)$/.exec(hash);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}
