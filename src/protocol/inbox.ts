import { z } from "zod/mini";
import { CountdownState, InteractionRequest } from "./interactions.ts";
import { QuestionDraft } from "./question.ts";

/**
 * U1: one thing waiting for the user, in any session (own or an MCP agent's). The session's
 * title and agent come from its summary, which every client already holds.
 */
export const InboxItem = z.strictObject({
  request: InteractionRequest,
  countdown: CountdownState,
  /** X3: the work in progress, so the card opens where another device left it. */
  draft: z.optional(QuestionDraft),
  position: z
    .number()
    .check(
      z.int(),
      z.minimum(0),
      z.describe("Place in its session's queue (Q7): 0 is the head, the one answerable now."),
    ),
});
export type InboxItem = z.infer<typeof InboxItem>;

/** U1: every pending interaction, sent right after `welcome`. */
export const InboxSnapshotFrame = z.strictObject({
  type: z.literal("inbox.snapshot"),
  items: z.array(InboxItem),
});

/** U1: what changed since the last inbox frame; `removed` holds interaction ids. */
export const InboxChangedFrame = z.strictObject({
  type: z.literal("inbox.changed"),
  upserted: z.array(InboxItem),
  removed: z.array(z.string()),
});

/** U1: oldest first; a session's own queue order breaks ties. */
export function inboxOrder(a: InboxItem, b: InboxItem): number {
  return (
    a.request.createdAt - b.request.createdAt ||
    (a.request.sessionId < b.request.sessionId
      ? -1
      : a.request.sessionId > b.request.sessionId
        ? 1
        : 0) ||
    a.position - b.position
  );
}
