// The debug chat lives at /dialogue on every device: /mobi/dialogue is the H5 app chat, another page
// (route table: desktopOnly), so this link keeps the query but never gets the phone prefix.
import { useLocation, useNavigate } from "@remix-run/react";
import { useCallback } from "react";
import { carryQuery } from "../../lib/carry-query";

export function useDebugChat() {
  const navigate = useNavigate();
  const { search } = useLocation();
  return useCallback((agentId: string) => navigate(carryQuery(`/dialogue?agent_id=${encodeURIComponent(agentId)}`, search)), [navigate, search]);
}
