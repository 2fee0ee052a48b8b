// tRPC procedures of figures: authenticate, parse, call the service, answer. Uploads are multipart:
// figures.http.ts.
import { authedProcedure, router } from "../trpc/trpc";
import { buyFigure, listFigureShop, setFigureSale } from "./figure-sale.service";
import { ZBoughtFigure, ZBuyFigureInput, ZFigureShopInput, ZFigureShopPage, ZSetFigureSaleInput } from "./figure-sale.schema";
import { orderFigureTraining } from "./figure-training.service";
import * as figures from "./figures.service";
import { ZFigureIdInput, ZFigureList, ZFigureView, ZRemovedFigure, ZRenameFigureInput, ZSaveKeyInput, ZTrainingOrder } from "./figures.schema";

export const figuresRouter = router({
  list: authedProcedure.output(ZFigureList).query(({ ctx }) => figures.listFigures(ctx.account)),
  get: authedProcedure
    .input(ZFigureIdInput)
    .output(ZFigureView)
    .query(({ ctx, input }) => figures.getFigure(ctx.account, input)),
  rename: authedProcedure
    .input(ZRenameFigureInput)
    .output(ZFigureView)
    .mutation(({ ctx, input }) => figures.renameFigure(ctx.account, input)),
  remove: authedProcedure
    .input(ZFigureIdInput)
    .output(ZRemovedFigure)
    .mutation(({ ctx, input }) => figures.removeFigure(ctx.account, input)),
  saveKey: authedProcedure
    .input(ZSaveKeyInput)
    .output(ZFigureView)
    .mutation(({ ctx, input }) => figures.saveFigureKey(ctx.account, input)),
  orderTraining: authedProcedure
    .input(ZFigureIdInput)
    .output(ZTrainingOrder)
    .mutation(({ ctx, input }) => orderFigureTraining(ctx.account, input)),
  setSale: authedProcedure
    .input(ZSetFigureSaleInput)
    .output(ZFigureView)
    .mutation(({ ctx, input }) => setFigureSale(ctx.account, input)),
  shop: authedProcedure
    .input(ZFigureShopInput)
    .output(ZFigureShopPage)
    .query(({ ctx, input }) => listFigureShop(ctx.account, input)),
  buy: authedProcedure
    .input(ZBuyFigureInput)
    .output(ZBoughtFigure)
    .mutation(({ ctx, input }) => buyFigure(ctx.account, input)),
});
