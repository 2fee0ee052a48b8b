import { initTRPC, TRPCError } from "@trpc/server";
import type { CreateExpressContextOptions } from "@trpc/server/adapters/express";
import superjson from "superjson";
import { AppError, isAppError } from "../errors/app-error";
import { asZodError, mapError } from "../errors/map-error";
import { getRequestLanguage, isPlatformAdmin } from "../http/request-context";
import { getAuth } from "../http/auth-context";

export async function createContext({ req }: CreateExpressContextOptions) {
  const auth = await getAuth(req);
  return { lng: getRequestLanguage(req), isPlatformAdmin: await isPlatformAdmin(req), account: auth?.account ?? null };
}
export type TContext = Awaited<ReturnType<typeof createContext>>;

const t = initTRPC.context<TContext>().create({
  transformer: superjson,
  // The one place tRPC learns about our errors: nothing wraps next() in try/catch.
  errorFormatter({ shape, error, ctx }) {
    const mapped = mapError(isOutputFailure(error) ? error : (error.cause ?? error), ctx?.lng);
    return { ...shape, message: mapped.envelope.description, data: { ...shape.data, code: shape.data.code, appCode: mapped.code, envelope: mapped.envelope } };
  },
});

type TTrpcCode = ConstructorParameters<typeof TRPCError>[0]["code"];
const TRPC_CODES: Record<number, TTrpcCode> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  402: "PAYMENT_REQUIRED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  410: "NOT_FOUND",
  413: "PAYLOAD_TOO_LARGE",
  422: "UNPROCESSABLE_CONTENT",
  429: "TOO_MANY_REQUESTS",
  502: "BAD_GATEWAY",
  503: "SERVICE_UNAVAILABLE",
};

// Services throw AppError (or a ZodError from parsing their input); tRPC would call either a 500.
// next() never throws: look at its result and give the error the HTTP status of
// its catalogue code.
/**
 * An answer that does not match its procedure's declared output is our bug, not the caller's: it
 * stays a 500 (logged by mapError) rather than reading as a refused field.
 */
function isOutputFailure(error: TRPCError) {
  return error.code === "INTERNAL_SERVER_ERROR" && error.message === "Output validation failed";
}

const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause;
  if (isOutputFailure(result.error)) return result;
  if (asZodError(cause)) return { ...result, error: new TRPCError({ code: "BAD_REQUEST", cause }) };
  if (!isAppError(cause)) return result;
  return { ...result, error: new TRPCError({ code: TRPC_CODES[(cause as AppError).httpStatus] ?? "INTERNAL_SERVER_ERROR", cause }) };
});

export const router = t.router;
export const publicProcedure = t.procedure.use(mapAppErrors);
/** A signed-in account; 110003 (not_logged_in) otherwise, which the browser turns into the login page. */
export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.account) throw new AppError("not_logged_in");
  return next({ ctx: { ...ctx, account: ctx.account } });
});
export const adminProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.isPlatformAdmin) throw new AppError("no_permission");
  return next();
});
