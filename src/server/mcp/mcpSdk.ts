// What the MCP bridge takes from the official SDK, in one module that the bridge imports on the
// first /mcp request (never statically): its schemas and the web-standard fetch machinery its transport pulls
// in cost tens of milliseconds, which every start would otherwise pay before its first page.
export { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
export { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
export { normalizeObjectSchema } from "@modelcontextprotocol/sdk/server/zod-compat.js";
export { toJsonSchemaCompat } from "@modelcontextprotocol/sdk/server/zod-json-schema-compat.js";
export {
  CancelTaskRequestSchema,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  isInitializeRequest,
  LATEST_PROTOCOL_VERSION,
  ListRootsResultSchema,
  ListTasksRequestSchema,
  ListToolsRequestSchema,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
