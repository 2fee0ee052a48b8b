// What every library page loads first: one page of items and today's allowance, or, when the
// edition does not include the library, the localized refusal to show instead.
import { requireSessionAccount } from "../../lib/auth.server";
import { getRequestLanguage } from "../../i18n/i18n.server";
import { isAppError } from "../../../server/errors/app-error";
import { mapError } from "../../../server/errors/map-error";
import { getMediaQuota, listMedia } from "../../../server/media/media.service";
import { MEDIA_KINDS, type TMediaKind } from "../../../server/media/media.schema";

export async function loadMediaLibrary(request: Request, opts: { pageSize: number }) {
  const account = await requireSessionAccount(request);
  const url = new URL(request.url);
  const kindParam = url.searchParams.get("kind");
  const kind = (MEDIA_KINDS as readonly string[]).includes(kindParam ?? "") ? (kindParam as TMediaKind) : undefined;
  try {
    const [page, quota] = await Promise.all([listMedia(account, { kind, page: 1, pageSize: opts.pageSize }), getMediaQuota(account)]);
    return { locked: null, kind, page, quota };
  } catch (err) {
    if (isAppError(err) && err.code === "edition_upgrade_required")
      return { locked: mapError(err, getRequestLanguage(request)).envelope.description, kind, page: null, quota: null };
    throw err;
  }
}
