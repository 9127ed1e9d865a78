import { ACCESS_CHECK_PATH } from "../../protocol/index.ts";
import type { AccessCheck } from "./Connection.ts";

/**
 * W8: whether the server still takes this tab's cookie. 401 and 403 mean the token changed
 * (rotated, or another workspace now on this port); no answer means the server is down.
 */
export async function checkAccess(fetcher: typeof fetch): Promise<AccessCheck> {
  let response: Response;
  try {
    response = await fetcher(ACCESS_CHECK_PATH, {
      cache: "no-store",
      credentials: "same-origin",
      redirect: "manual",
    });
  } catch {
    return "unreachable";
  }
  if (response.status === 401 || response.status === 403) return "refused";
  return response.ok ? "ok" : "unreachable";
}
