import { initTRPC } from "@trpc/server";
import type { CreateExpressContextOptions } from "@trpc/server/adapters/express";
import superjson from "superjson";
import { AppError } from "../errors/app-error";
import { mapError } from "../errors/map-error";
import { getRequestLanguage, isPlatformAdmin } from "../http/request-context";

export function createContext({ req }: CreateExpressContextOptions) {
  return { lng: getRequestLanguage(req), isPlatformAdmin: isPlatformAdmin(req) };
}
export type TContext = Awaited<ReturnType<typeof createContext>>;

const t = initTRPC.context<TContext>().create({
  transformer: superjson,
  // The one place tRPC learns about our errors (STYLE: never try/catch around next()).
  errorFormatter({ shape, error, ctx }) {
    const mapped = mapError(error.cause ?? error, ctx?.lng);
    return { ...shape, message: mapped.envelope.description, data: { ...shape.data, code: shape.data.code, appCode: mapped.code, envelope: mapped.envelope } };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;
export const adminProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.isPlatformAdmin) throw new AppError("no_permission");
  return next();
});
