// What the market's loaders share: the viewer (when signed in) and refusals turned into pages.
import { isAppError } from "../../../server/errors/app-error";
import { getSessionAccount } from "../../lib/auth.server";

/** A market page of something missing or hidden answers 404 (the shell's not-found screen). */
export async function orNotFound<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (isAppError(err) && (err.code === "not_found" || err.code === "validation_failed")) throw new Response("Not found", { status: 404 });
    throw err;
  }
}

export async function getViewer(request: Request) {
  const account = await getSessionAccount(request);
  return account ? { id: account.id, roles: account.roles, enterpriseId: account.enterpriseId } : null;
}

export function readParams(request: Request) {
  return new URL(request.url).searchParams;
}
