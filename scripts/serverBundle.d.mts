// Types of what tests take from serverBundle.mjs (plain JS: it runs before TypeScript can).
import type { BuildOptions, Metafile } from "esbuild";

export const OUT_DIR: string;
export function bundleOptions(root: string): BuildOptions & { metafile: true };
export function startupInputs(metafile: Metafile): Set<string>;
export function stampedFiles(bundled: string[]): string[];
export function freshBundle(
  root: string,
): { path: string; builtAt: number; encoding: BufferEncoding } | undefined;
export function buildBundle(
  root: string,
): Promise<{ path: string; builtAt: number; encoding: BufferEncoding }>;
export function ensureBundle(
  root: string,
): Promise<{ path: string; builtAt: number; encoding: BufferEncoding }>;
