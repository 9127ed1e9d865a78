/// <reference types="vite/client" />

declare module "virtual:server-frame-program" {
  const program: import("../protocol/schemaProgram.ts").SchemaProgram;
  export default program;
}
