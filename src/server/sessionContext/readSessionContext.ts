import type { ModelProvider } from "../models/provider.ts";
import { type ContextStrategy, extractWithModel } from "./extract.ts";
import { CHARS_PER_TOKEN, handoffMaterial, relevantMaterial } from "./localMaterial.ts";
import type { SessionMaterialSource } from "./source.ts";

export interface SessionContextRequest {
  readonly sessionId: string;
  readonly query: string;
  readonly strategy: ContextStrategy;
  readonly maxTokens: number;
}

export interface SessionContextDeps {
  readonly source: SessionMaterialSource;
  /** A real model to extract with; local material is used without one. */
  readonly model?: ModelProvider | undefined;
  readonly signal: AbortSignal;
  readonly timeoutMs?: number;
}

export type SessionContextResult =
  | {
      ok: true;
      title: string;
      updatedAt: number;
      text: string;
      method: "model" | "local";
      /** Why the model was not used although one was available. */
      fallbackReason?: string;
    }
  | { ok: false; message: string };

/** M4: background from another session, extracted by a model when possible, else built here. */
export async function readSessionContext(
  request: SessionContextRequest,
  deps: SessionContextDeps,
): Promise<SessionContextResult> {
  const material = deps.source.read(request.sessionId);
  if (material === undefined) {
    return {
      ok: false,
      message:
        `There is no session ${request.sessionId}. Check the id: it is the sess_… id the user ` +
        "mentioned, and only sessions stored on this host can be read.",
    };
  }
  const base = { ok: true as const, title: material.title, updatedAt: material.updatedAt };
  let fallbackReason: string | undefined;
  if (deps.model !== undefined) {
    try {
      const text = await extractWithModel(deps.model, {
        material,
        query: request.query,
        strategy: request.strategy,
        maxTokens: request.maxTokens,
        signal: deps.signal,
        ...(deps.timeoutMs === undefined ? {} : { timeoutMs: deps.timeoutMs }),
      });
      return { ...base, text, method: "model" };
    } catch (error) {
      if (deps.signal.aborted) throw error;
      fallbackReason = error instanceof Error ? error.message : String(error);
    }
  }
  const budget = request.maxTokens * CHARS_PER_TOKEN;
  const text =
    request.strategy === "handoff"
      ? handoffMaterial(material, budget)
      : relevantMaterial(material, request.query, budget);
  return { ...base, text, method: "local", ...(fallbackReason ? { fallbackReason } : {}) };
}
