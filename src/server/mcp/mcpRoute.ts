import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { releaseHeaders } from "./heldRequest.ts";
import type { McpBridge } from "./mcpBridge.ts";

/**
 * The largest call the tool schemas admit: four questions, each with a detail of MAX_PLAN_CHARS
 * (300,000) characters, JSON-escaped as \uXXXX (6 bytes a character, as Python's json.dumps
 * writes CJK by default) is 7.2 MB; a review_plan call is a quarter of that.
 */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

export const MCP_PATH = "/mcp";

/** Batches left the protocol with this revision (B2). */
const NO_BATCHES_FROM = "2025-06-18";

/** A JSON-RPC error that answers no request in particular, as the transport sends them. */
function rpcError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply
    .code(status)
    .type("application/json")
    .send(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }));
}

function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * B1/B2: Streamable HTTP for MCP at `/mcp`, served by the SDK's transport: POST carries
 * JSON-RPC, GET opens the standalone stream (or resumes one with Last-Event-ID), DELETE ends a
 * session. Host, Origin and the token are checked by the server's access hook first; the
 * rules below are the ones MCP adds for this route.
 */
export async function registerMcpRoute(app: FastifyInstance, bridge: McpBridge): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      "*",
      { parseAs: "string", bodyLimit: MAX_BODY_BYTES },
      (_, body, done) => done(null, body),
    );
    // B2: an agent reads JSON-RPC errors; Fastify's own (a body over the limit) are worded so.
    scope.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status >= 500) request.log.error(error);
      const message =
        status === 413
          ? `Request too large: at most ${MAX_BODY_BYTES / 1024 / 1024} MB a message`
          : status >= 500
            ? "Internal error"
            : `Invalid Request: ${error.message}`;
      return rpcError(reply, status, status >= 500 ? -32603 : -32600, message);
    });
    scope.route({
      method: ["GET", "POST", "DELETE"],
      url: MCP_PATH,
      preHandler: async (request, reply) => checkTransportRules(request, reply, bridge),
      handler: async (request, reply) => {
        const held = request as FastifyRequest & { mcpBody?: unknown };
        const body = held.mcpBody;
        // A waiting call's request lives as long as the call: it keeps neither body text nor JSON.
        held.mcpBody = undefined;
        held.body = undefined;
        const target = await bridge.target(headerOf(request.headers["mcp-session-id"]), body);
        if (!target.ok) return rpcError(reply, target.status, target.code, target.message);
        reply.hijack();
        bridge.track(target.connection, reply.raw);
        // Issue 15: our own waiting tools are answered without the SDK's transport.
        if (bridge.serveFast(target.connection, request.raw, reply.raw, body)) {
          releaseHeaders(request.raw);
          return reply;
        }
        // Not awaited: the stream may stay open for as long as a person takes to answer, and
        // this handler has nothing left to do meanwhile.
        target.connection.transport.handleRequest(request.raw, reply.raw, body).catch((error) => {
          request.log.error(error);
          reply.raw.destroy();
        });
        return reply;
      },
    });
  });
}

/** B2: JSON bodies, and no batches on current revisions (the bearer token is checked first, R7). */
async function checkTransportRules(
  request: FastifyRequest,
  reply: FastifyReply,
  bridge: McpBridge,
): Promise<FastifyReply | undefined> {
  if (request.method !== "POST") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(typeof request.body === "string" ? request.body : "");
  } catch {
    return rpcError(reply, 400, -32700, "Parse error: the body is not valid JSON");
  }
  if (Array.isArray(body)) {
    const sessionHeader = headerOf(request.headers["mcp-session-id"]);
    const version =
      headerOf(request.headers["mcp-protocol-version"]) ?? bridge.protocolVersionOf(sessionHeader);
    if (version === undefined || version >= NO_BATCHES_FROM) {
      return rpcError(
        reply,
        400,
        -32600,
        `Invalid Request: JSON-RPC batches are not part of MCP ${version ?? NO_BATCHES_FROM} and later; send one message per request`,
      );
    }
  }
  (request as FastifyRequest & { mcpBody?: unknown }).mcpBody = body;
  return undefined;
}
