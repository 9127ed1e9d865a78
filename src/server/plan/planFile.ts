import { open } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../tools/atomicWrite.ts";

/** P11: how much of a plan file is put back after compaction (20,000 chars × 4 + 1,024). */
export const PLAN_FILE_REFERENCE_MAX_BYTES = 81_024;

/** Where approved plans live, relative to the workspace. */
export const PLANS_DIR = join(".zcode", "plans");

/** P8: `plan-<sessionId>.md`, with anything but letters, digits, `_` and `-` made a `-`. */
export function planFileName(sessionId: string): string {
  return `plan-${sessionId.replace(/[^A-Za-z0-9_-]/g, "-")}.md`;
}

/** The plan file's path relative to the workspace, as the model and the transcript see it. */
export function planFileRelativePath(sessionId: string): string {
  return join(PLANS_DIR, planFileName(sessionId));
}

export function planFilePath(workspace: string, sessionId: string): string {
  return join(workspace, planFileRelativePath(sessionId));
}

/** P8: writes the approved plan atomically; resolves with the workspace-relative path. */
export async function writePlanFile(
  workspace: string,
  sessionId: string,
  plan: string,
  signal?: AbortSignal,
): Promise<string> {
  await writeFileAtomic(planFilePath(workspace, sessionId), plan, signal);
  return planFileRelativePath(sessionId);
}

export interface PlanFileExcerpt {
  /** Workspace-relative path. */
  path: string;
  text: string;
  /** The file was longer than what was read. */
  truncated: boolean;
}

/** P11: the start of the session's plan file (≤ 81,024 bytes), or undefined when there is none. */
export async function readPlanFileExcerpt(
  workspace: string,
  sessionId: string,
  maxBytes = PLAN_FILE_REFERENCE_MAX_BYTES,
): Promise<PlanFileExcerpt | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(planFilePath(workspace, sessionId), "r");
  } catch {
    return undefined;
  }
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(size, maxBytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    // A cut through a multi-byte character would decode as U+FFFD; drop that tail.
    const text = new TextDecoder().decode(buffer.subarray(0, bytesRead)).replace(/\uFFFD+$/, "");
    return { path: planFileRelativePath(sessionId), text, truncated: size > bytesRead };
  } finally {
    await handle.close();
  }
}
