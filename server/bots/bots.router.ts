// tRPC procedures of the console's bots (/create_bot): authenticate, call the service (which parses
// and decides), answer. The inputs are the shared schemas; the service refuses other people's bots.
import { z } from "zod";
import { authedProcedure, router } from "../trpc/trpc";
import { ZBotCreate, ZBotUpdate, ZScheduleInput } from "./bots.schema";
import * as schedules from "./bot-schedules.service";
import * as bots from "./bots.service";
import { deleteBot } from "./bot-delete.service";

const ZBotId = z.object({ bot_id: z.string().min(1).max(40) });
const ZScheduleId = ZBotId.extend({ schedule_id: z.string().min(1).max(40) });
const ZDeliveriesPage = ZBotId.extend({ before: z.iso.datetime({ offset: true }).optional(), take: z.number().int().min(1).max(100).optional() });

export const botsRouter = router({
  quote: authedProcedure.query(({ ctx }) => bots.getBotPackageQuote(ctx.account)),
  list: authedProcedure.query(({ ctx }) => bots.listBots(ctx.account)),
  get: authedProcedure.input(ZBotId).query(({ ctx, input }) => bots.getBot(ctx.account, input.bot_id)),
  create: authedProcedure.input(ZBotCreate).mutation(({ ctx, input }) => bots.createBot(ctx.account, input)),
  update: authedProcedure.input(ZBotUpdate).mutation(({ ctx, input }) => bots.updateBot(ctx.account, input)),
  delete: authedProcedure.input(ZBotId).mutation(({ ctx, input }) => deleteBot(ctx.account, input.bot_id)),
  renew: authedProcedure.input(ZBotId).mutation(({ ctx, input }) => bots.renewBotPackage(ctx.account, input.bot_id)),
  relogin: authedProcedure.input(ZBotId).mutation(({ ctx, input }) => bots.relogin(ctx.account, input.bot_id)),
  schedules: router({
    list: authedProcedure.input(ZBotId).query(({ ctx, input }) => schedules.listSchedules(ctx.account, input.bot_id)),
    save: authedProcedure.input(ZScheduleInput).mutation(({ ctx, input }) => schedules.saveSchedule(ctx.account, input)),
    delete: authedProcedure.input(ZScheduleId).mutation(({ ctx, input }) => schedules.deleteSchedule(ctx.account, input.bot_id, input.schedule_id)),
  }),
  deliveries: authedProcedure.input(ZDeliveriesPage).query(({ ctx, input }) => schedules.listDeliveries(ctx.account, input.bot_id, { before: input.before, take: input.take })),
  targets: authedProcedure.input(ZBotId).query(({ ctx, input }) => schedules.listTargets(ctx.account, input.bot_id)),
  events: router({
    list: authedProcedure.input(ZBotId).query(({ ctx, input }) => bots.listEvents(ctx.account, input.bot_id)),
    markRead: authedProcedure.input(ZBotId).mutation(({ ctx, input }) => bots.markEventsRead(ctx.account, input.bot_id)),
  }),
});
