import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { PlangateServer } from "./server.ts";

/** An agent outside plangate, connected the way an MCP-capable coding agent would be. */
export async function connectAgent(
  server: PlangateServer,
  name = "outside-agent",
): Promise<Client> {
  const agent = new Client({ name, version: "1.0.0" });
  await agent.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", server.origin), {
      requestInit: { headers: { authorization: `Bearer ${server.token}` } },
    }),
  );
  return agent;
}
