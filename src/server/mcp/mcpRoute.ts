import type { FastifyInstance } from "fastify";
import type { McpBridge } from "./mcpBridge.ts";

/** A plan of 200,000 characters plus JSON escaping fits with room to spare. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export const MCP_PATH = "/mcp";

/**
 * X1: Streamable HTTP for MCP at `/mcp`: POST carries JSON-RPC and gets a JSON reply, DELETE
 * ends a connection; there is no standalone server stream (GET is 405, which clients accept).
 * A call that waits for the user turns its reply into an event stream once it has progress to
 * report, when the agent accepts one. Access is checked by the server's onRequest hook first.
 */
export async function registerMcpRoute(app: FastifyInstance, bridge: McpBridge): Promise<void> {
  await app.register(async (scope) => {
    // The bridge parses the body itself, so bad JSON gets a JSON-RPC parse error.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      "*",
      { parseAs: "string", bodyLimit: MAX_BODY_BYTES },
      (_, body, done) => done(null, body),
    );
    scope.post(MCP_PATH, async (request, reply) => {
      const disconnected = new AbortController();
      reply.raw.on("close", () => {
        if (!reply.raw.writableFinished) disconnected.abort("the agent disconnected");
      });
      const acceptsStream = (headerOf(request.headers.accept) ?? "").includes("text/event-stream");
      let streaming = false;
      const event = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
      const notify = (message: unknown) => {
        if (reply.raw.destroyed) return;
        if (!streaming) {
          streaming = true;
          reply.hijack();
          reply.raw.writeHead(200, {
            "content-type": "text/event-stream",
            "cache-control": "no-store",
          });
        }
        reply.raw.write(event(message));
      };
      const answer = await bridge.handlePost(
        typeof request.body === "string" ? request.body : "",
        headerOf(request.headers["mcp-session-id"]),
        disconnected.signal,
        acceptsStream ? notify : undefined,
      );
      if (streaming) {
        if (!reply.raw.destroyed) {
          for (const body of [answer.body ?? []].flat()) reply.raw.write(event(body));
          reply.raw.end();
        }
        return reply;
      }
      if (answer.connectionId !== undefined) reply.header("mcp-session-id", answer.connectionId);
      reply.code(answer.status);
      if (answer.body === undefined) return reply.send();
      return reply.type("application/json").send(JSON.stringify(answer.body));
    });
    scope.delete(MCP_PATH, async (request, reply) => {
      const ended = bridge.end(headerOf(request.headers["mcp-session-id"]));
      return reply.code(ended ? 200 : 404).send();
    });
    scope.get(MCP_PATH, async (_, reply) => reply.code(405).header("allow", "POST, DELETE").send());
  });
}

function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
