import Fastify from "fastify";
import { noJsonSchemaCompilers } from "./schemaCompilers.ts";

describe("[R2] routes without fastify's JSON-schema compilers", () => {
  it("serve routes as usual", async () => {
    const app = Fastify({ schemaController: noJsonSchemaCompilers });
    app.get("/x", async () => "ok");
    const reply = await app.inject({ method: "GET", url: "/x" });
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toBe("ok");
    await app.close();
  });

  it("refuse a route that asks for a JSON schema, rather than leave its input unchecked", async () => {
    const app = Fastify({ schemaController: noJsonSchemaCompilers });
    app.post("/y", { schema: { body: { type: "object" } } }, async () => "ok");
    await expect(app.ready()).rejects.toThrow(/no route takes a JSON schema/);
    await app.close().catch(() => {});
  });
});
