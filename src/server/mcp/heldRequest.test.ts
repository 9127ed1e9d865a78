import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import Fastify from "fastify";
import { releaseHeaders } from "./heldRequest.ts";

describe("a request the fast path holds (issue 15)", () => {
  it("[B3] lets go of its headers, and its stream still carries the result", async () => {
    const app = Fastify({ logger: false });
    let held: { request: IncomingMessage; response: ServerResponse } | undefined;
    app.post("/held", async (request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { "content-type": "text/event-stream" });
      reply.raw.write("data: primed\n\n");
      releaseHeaders(request.raw);
      held = { request: request.raw, response: reply.raw };
      return reply;
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      const { port } = app.server.address() as { port: number };
      const body = new Promise<string>((resolve, reject) => {
        const call = httpRequest(
          {
            port,
            host: "127.0.0.1",
            method: "POST",
            path: "/held",
            headers: { "content-type": "application/json", "x-kept": "no" },
          },
          (response) => {
            let text = "";
            response.setEncoding("utf8");
            response.on("data", (chunk: string) => {
              text += chunk;
              if (text.includes("primed") && held && !held.response.writableEnded) {
                held.response.end("data: result\n\n");
              }
            });
            response.on("end", () => resolve(text));
          },
        );
        call.on("error", reject);
        call.end("{}");
      });
      expect(await body).toBe("data: primed\n\ndata: result\n\n");
      const { request } = held as NonNullable<typeof held>;
      expect(request.headers).toEqual({});
      expect(request.rawHeaders).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
