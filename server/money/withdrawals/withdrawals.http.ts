// REST of withdrawals, in the {status, description, data} envelope: the preview the form shows
// before confirming (GET /api/v1/withdrawal/preview?amount=), submitting, the withdrawer's list,
// the administrators' queue and decisions, and the enterprise switch.
import express from "express";
import { handle } from "../../http/envelope-response";
import { requireAuth } from "../../http/auth-context";
import {
  getMyWithdrawal,
  getStaffWithdrawPolicy,
  listMyWithdrawals,
  listWithdrawalsForReview,
  markWithdrawalAbnormal,
  markWithdrawalArrived,
  previewWithdrawal,
  setStaffWithdrawPolicy,
  submitWithdrawal,
} from "./withdrawals.service";
import { ZListWithdrawalsInput, ZMarkAbnormalInput, ZPreviewWithdrawalInput, ZStaffMayWithdrawInput, ZSubmitWithdrawalInput } from "./withdrawals.schema";

export function createWithdrawalsRouter() {
  const router = express.Router();
  router.get(
    "/v1/withdrawal/preview",
    handle(async (req) => (await requireAuth(req), previewWithdrawal(ZPreviewWithdrawalInput.parse({ amount: req.query.amount })))),
  );
  router.post(
    "/v1/withdrawal",
    handle(async (req) => submitWithdrawal((await requireAuth(req)).account, ZSubmitWithdrawalInput.parse(req.body))),
  );
  router.get(
    "/v1/withdrawal/mine",
    handle(async (req) => listMyWithdrawals((await requireAuth(req)).account, ZListWithdrawalsInput.parse(req.query))),
  );
  router.get(
    "/v1/withdrawal/:id",
    handle(async (req) => getMyWithdrawal((await requireAuth(req)).account, req.params.id)),
  );
  router.get(
    "/v1/admin/withdrawals",
    handle(async (req) => listWithdrawalsForReview((await requireAuth(req)).account, ZListWithdrawalsInput.parse(req.query))),
  );
  router.post(
    "/v1/admin/withdrawals/:id/arrive",
    handle(async (req) => markWithdrawalArrived((await requireAuth(req)).account, req.params.id)),
  );
  router.post(
    "/v1/admin/withdrawals/:id/abnormal",
    handle(async (req) => markWithdrawalAbnormal((await requireAuth(req)).account, req.params.id, ZMarkAbnormalInput.parse(req.body))),
  );
  router.get(
    "/v1/enterprise/staff_may_withdraw",
    handle(async (req) => getStaffWithdrawPolicy((await requireAuth(req)).account)),
  );
  router.put(
    "/v1/enterprise/staff_may_withdraw",
    handle(async (req) => setStaffWithdrawPolicy((await requireAuth(req)).account, ZStaffMayWithdrawInput.parse(req.body))),
  );
  return router;
}
