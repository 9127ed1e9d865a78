import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SHARED_CLUSTER_ENV, stopSharedCluster } from "./testPostgres.ts";

/**
 * Vitest global setup: the test files of a run share one throwaway PostgreSQL cluster instead
 * of each paying for initdb and a start. The first file that needs it starts it (so a run
 * without PostgreSQL tests starts none); each file still works on fresh databases of its own.
 * The workers find the shared folder through the environment they inherit.
 */
export function setup(): () => Promise<void> {
  if (process.env.PLANGATE_TEST_PG_URL) return async () => {};
  const shared = mkdtempSync(join(tmpdir(), "plangate-pg-shared-"));
  process.env[SHARED_CLUSTER_ENV] = shared;
  return async () => {
    delete process.env[SHARED_CLUSTER_ENV];
    await stopSharedCluster(shared);
  };
}
