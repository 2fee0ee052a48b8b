// A refusal thrown by a page's loader or action is an answer, not a crash: the service's AppError
// becomes a thrown Response with the code's HTTP status and the envelope in the reader's language,
// so the page's error boundary shows "not found" (another account's id, or none) or "no access"
// with that status instead of a 500. A loader's query that fails its schema (no id, or a malformed
// one) names nothing, so it is not found too. Applied once to the whole server build, so a page
// added later is covered without doing anything.
import type { ServerBuild } from "@remix-run/node";
import { AppError, isAppError } from "../errors/app-error";
import { asZodError, mapError } from "../errors/map-error";
import { readLanguageCookie } from "../../common/languages";

type TRouteFunction = (args: { request: Request }) => unknown;

function answerRefusals<F extends TRouteFunction>(fn: F, kind: "loader" | "action"): F {
  return (async (args: { request: Request }) => {
    try {
      return await fn(args);
    } catch (thrown) {
      const err = kind === "loader" && asZodError(thrown) ? new AppError("not_found") : thrown;
      if (!isAppError(err) && !asZodError(err)) throw err;
      const { httpStatus, envelope } = mapError(err, readLanguageCookie(args.request.headers.get("cookie") ?? undefined));
      throw Response.json(envelope, { status: httpStatus });
    }
  }) as F;
}

/** The build with every route's loader and action answering AppErrors with their status. */
export function withPageRefusals(build: ServerBuild): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      const module = { ...route.module } as Record<string, unknown>;
      if (typeof module.loader === "function") module.loader = answerRefusals(module.loader as TRouteFunction, "loader");
      if (typeof module.action === "function") module.action = answerRefusals(module.action as TRouteFunction, "action");
      return [id, { ...route, module: module as unknown as typeof route.module }];
    }),
  );
  return { ...build, routes };
}
