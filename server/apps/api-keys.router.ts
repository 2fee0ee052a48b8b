// tRPC procedures of an API app's key for its owner (the key panel on /create_api).
import { authedProcedure, router } from "../trpc/trpc";
import { ZApiKeyAppInput, ZApiKeyView, ZIssuedApiKey, ZRevokedApiKey } from "./api-keys.schema";
import * as keys from "./api-keys.service";

export const apiKeysRouter = router({
  get: authedProcedure
    .input(ZApiKeyAppInput)
    .output(ZApiKeyView.nullable())
    .query(({ ctx, input }) => keys.getApiKey(ctx.account, input)),
  create: authedProcedure
    .input(ZApiKeyAppInput)
    .output(ZIssuedApiKey)
    .mutation(({ ctx, input }) => keys.createApiKey(ctx.account, input)),
  reset: authedProcedure
    .input(ZApiKeyAppInput)
    .output(ZIssuedApiKey)
    .mutation(({ ctx, input }) => keys.resetApiKey(ctx.account, input)),
  revoke: authedProcedure
    .input(ZApiKeyAppInput)
    .output(ZRevokedApiKey)
    .mutation(({ ctx, input }) => keys.revokeApiKey(ctx.account, input)),
});
