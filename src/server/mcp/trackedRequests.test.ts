import { mkdtempSync } from "node:fs";
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../clock.ts";
import type { SessionManager } from "../sessions/sessionManager.ts";
import { openDatabase } from "../store/database.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { McpBridge } from "./mcpBridge.ts";

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "dropping-agent", version: "1" },
  },
};

function responseOnItsOwnSocket(): ServerResponse {
  return new ServerResponse(new IncomingMessage(new Socket()));
}

describe("requests an MCP connection counts as open (B5)", () => {
  it("[B5] a request whose client left before it was tracked does not keep its connection from idling", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plangate-track-"));
    const db = openDatabase(join(dir, "store.db"));
    // The session manager is not reached by finding or opening a connection.
    const bridge = new McpBridge({
      sessions: {} as SessionManager,
      log: new SessionLog(db, systemClock),
      db,
      workspace: dir,
    });
    try {
      const target = await bridge.target(undefined, initialize);
      if (!target.ok) throw new Error(target.message);
      const { connection } = target;

      const gone = responseOnItsOwnSocket();
      gone.destroy();
      bridge.track(connection, gone);
      expect(connection.openRequests).toBe(0);

      const live = responseOnItsOwnSocket();
      bridge.track(connection, live);
      expect(connection.openRequests).toBe(1);
      live.emit("close");
      expect(connection.openRequests).toBe(0);
    } finally {
      await bridge.close();
      db.close();
    }
  });
});
