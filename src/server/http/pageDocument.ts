import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Negotiator } from "@fastify/accept-negotiator";
import type { FastifyReply, FastifyRequest } from "fastify";
import { setStaticHeaders } from "./staticHeaders.ts";

type Encoding = "br" | "gzip" | "identity";

interface Copy {
  body: Buffer;
  etag: string;
}

interface Held {
  path: string;
  /** What the file looked like when read: a rebuild changes one of them. */
  stamp: string;
  copies: Map<Encoding, Copy>;
  negotiator: Negotiator<Encoding>;
}

const COPY_SUFFIX: Record<Encoding, string> = { br: ".br", gzip: ".gz", identity: "" };

/**
 * The page itself (index.html, at `/` and every client-side route), held in memory with the
 * build's compressed copies. Served by a static-file plugin, each request waits for an
 * open, a stat and a read on the thread pool, one turn of the event loop each: in a burst of
 * agent calls a turn takes hundreds of ms, and the page took seconds. From memory it is sent
 * in the turn that read the request. A cheap stat per request notices a rebuild.
 */
export class PageDocument {
  private held: Held | undefined;

  constructor(private readonly distDir: string) {}

  /** Sends the page; undefined when there is none (the build was removed meanwhile). */
  send(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
    const held = this.current();
    if (!held) return undefined;
    const accepted = request.headers["accept-encoding"];
    const encoding =
      (typeof accepted === "string" ? held.negotiator.negotiate(accepted.toLowerCase()) : null) ??
      "identity";
    const copy = held.copies.get(encoding) ?? (held.copies.get("identity") as Copy);
    // The same caching as every built file: checked on each load, varied by encoding.
    setStaticHeaders({ setHeader: (name, value) => reply.header(name, value) }, held.path);
    reply.header("content-type", "text/html; charset=utf-8").header("etag", copy.etag);
    if (copy !== held.copies.get("identity")) reply.header("content-encoding", encoding);
    const known = request.headers["if-none-match"];
    if (known?.split(",").some((tag) => tag.trim() === copy.etag)) {
      return reply.code(304).send();
    }
    return reply.send(copy.body);
  }

  private current(): Held | undefined {
    const path = join(this.distDir, "index.html");
    const stats = statSync(path, { throwIfNoEntry: false });
    if (!stats) return undefined;
    const stamp = `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
    if (this.held?.stamp === stamp) return this.held;
    const identity = readFileSync(path);
    const hash = createHash("sha256").update(identity).digest("base64url").slice(0, 16);
    const copies = new Map<Encoding, Copy>([["identity", { body: identity, etag: `"${hash}"` }]]);
    for (const encoding of ["br", "gzip"] as const) {
      try {
        const body = readFileSync(`${path}${COPY_SUFFIX[encoding]}`);
        copies.set(encoding, { body, etag: `"${hash}-${encoding}"` });
      } catch {
        // the build skips a copy that would not be smaller
      }
    }
    const negotiator = new Negotiator<Encoding>({
      supportedValues: [...copies.keys()].filter((encoding) => encoding !== "identity"),
    });
    this.held = { path, stamp, copies, negotiator };
    return this.held;
  }
}
