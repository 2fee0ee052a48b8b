// The one read sharing needs: an app's public face and whether it is served.
import { getDb, type TDbOrTx } from "../db/client";

export async function findAppForShare(id: string, tx: TDbOrTx = getDb()) {
  return tx.app.findFirst({
    where: { id, deletedAt: null },
    select: { id: true, ownerAccountId: true, state: true, removedAt: true, name: true, iconUrl: true, introduction: true },
  });
}
