import { type InboxChangedFrame as Changed, inboxUpdateOf } from "../../protocol/index.ts";

/**
 * U1: one inbox change as each client gets it. A new item of a session the client follows
 * goes in `arrived`, without its request: the session's `interaction.requested` event, sent to
 * that client before this change (the entry's subscribers hear it as it is appended; the inbox
 * a microtask later), carries it. Clients that follow the same sessions share one frame object,
 * so it is serialized once for all of them.
 */
export class InboxChangeVariants {
  private readonly variants = new Map<string, Changed>();

  constructor(private readonly frame: Changed) {}

  for(follows: ReadonlySet<string>): Changed {
    const slim = this.frame.upserted.filter((item) => follows.has(item.request.sessionId));
    if (slim.length === 0) return this.frame;
    const key = slim.map((item) => item.request.interactionId).join(",");
    let variant = this.variants.get(key);
    if (variant === undefined) {
      const slimmed = new Set(slim);
      variant = {
        ...this.frame,
        upserted: this.frame.upserted.filter((item) => !slimmed.has(item)),
        arrived: slim.map(inboxUpdateOf),
      };
      this.variants.set(key, variant);
    }
    return variant;
  }
}
