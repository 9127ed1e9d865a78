import { tempDir } from "../testing/helpers.ts";
import { describeStore } from "./storeSuite.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterAll(() => {
  for (const dir of dirs) dir.remove();
});

describeStore("SQLite", async () => {
  const dir = tempDir();
  dirs.push(dir);
  return `${dir.path}/plangate.db`;
});
