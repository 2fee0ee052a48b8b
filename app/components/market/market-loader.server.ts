// What the market's loaders share: the viewer (when signed in) and the address's query.
import { getSessionAccount } from "../../lib/auth.server";

export async function getViewer(request: Request) {
  const account = await getSessionAccount(request);
  return account ? { id: account.id, roles: account.roles, enterpriseId: account.enterpriseId } : null;
}

export function readParams(request: Request) {
  return new URL(request.url).searchParams;
}
