import type { FileHandle } from "node:fs/promises";

/** Text files contain no NUL byte in their first block; this is how git guesses too. */
export function looksBinary(sample: Uint8Array): boolean {
  return sample.subarray(0, 8192).includes(0);
}

export async function readSample(handle: FileHandle, bytes = 8192): Promise<Uint8Array> {
  const buffer = new Uint8Array(bytes);
  const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
  return buffer.subarray(0, bytesRead);
}

export function clip(line: string, max: number): string {
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** Splits file text into lines; a final newline does not make an extra empty line. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}
