import { useState } from "react";
import { callTrpc, trpc } from "../../lib/trpc";
import type { TTrainingSetDetail } from "../../../server/knowledge/training-sets.schema";
import { usePolling } from "./use-polling";

/** A set's detail, refreshed on demand and every 2 s while it trains. */
export function useSetDetail(initial: TTrainingSetDetail | null) {
  const [detail, setDetail] = useState(initial);
  const refresh = async (id = detail?.id) => {
    if (!id) return null;
    const next = await callTrpc(() => trpc.trainingSets.get.query({ id }));
    setDetail(next);
    return next;
  };
  usePolling(detail?.state === "training", () => refresh());
  return { detail, setDetail, refresh };
}
