import { boundaryProblems } from "./boundaries.ts";

const root = "/repo";

describe("layer boundaries (DESIGN §1)", () => {
  it("[§1] finds a web file importing the server through every spelling", () => {
    const spellings = [
      `import { x } from "../server/a.ts";`,
      `export { x } from "../server/a.ts";`,
      `import "../server/a.ts";`,
      `const m = await import("../server/a.ts");`,
      `const m = require("../server/a.ts");`,
    ];
    for (const text of spellings)
      expect(boundaryProblems(root, "src/web", "src/web/app.ts", text), text).toHaveLength(1);
  });

  it("[§1] lets each layer import itself and the protocol", () => {
    const text = `import "./styles.css";\nimport { f } from "../protocol/index.ts";`;
    expect(boundaryProblems(root, "src/web", "src/web/app.ts", text)).toEqual([]);
    expect(
      boundaryProblems(root, "src/server", "src/server/a.ts", `import "../protocol/x.ts";`),
    ).toEqual([]);
  });

  it("[§1] keeps the protocol to zod, side-effect imports included", () => {
    expect(
      boundaryProblems(root, "src/protocol", "src/protocol/a.ts", `import "node:fs";`),
    ).toHaveLength(1);
    expect(
      boundaryProblems(root, "src/protocol", "src/protocol/a.ts", `import { z } from "zod";`),
    ).toEqual([]);
  });

  it("[§1] shared code is importable by web and server, and imports neither nor any package", () => {
    const text = `import { diffLines } from "../../shared/lineDiff.ts";`;
    expect(boundaryProblems(root, "src/web", "src/web/q/a.ts", text)).toEqual([]);
    expect(boundaryProblems(root, "src/server", "src/server/p/a.ts", text)).toEqual([]);
    expect(
      boundaryProblems(root, "src/shared", "src/shared/a.ts", `import "../server/a.ts";`),
    ).toHaveLength(1);
    expect(
      boundaryProblems(root, "src/shared", "src/shared/a.ts", `import { x } from "node:fs";`),
    ).toHaveLength(1);
    expect(
      boundaryProblems(root, "src/shared", "src/shared/a.test.ts", `import fc from "fast-check";`),
    ).toEqual([]);
  });

  it("[R1] only the CLI imports the test clock: no route, socket or tool can step the server's time", () => {
    const text = `import { clockSteppedBy } from "../testClock.ts";`;
    for (const file of ["src/server/http/a.ts", "src/server/ws/a.ts", "src/server/mcp/a.ts"])
      expect(boundaryProblems(root, "src/server", file, text), file).toHaveLength(1);
    expect(
      boundaryProblems(root, "src/server", "src/server/cli.ts", `import "./testClock.ts";`),
    ).toEqual([]);
    expect(
      boundaryProblems(root, "src/server", "src/server/a.test.ts", `import "./testClock.ts";`),
    ).toEqual([]);
  });
});
