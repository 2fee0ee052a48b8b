// The workspace's view (browser-safe): the getting-started checklist in order, and the numbers
// beside it. Amounts are micro-Z.
export const WORKSPACE_STEPS = ["agent", "knowledge", "publish", "share", "earn"] as const;
export type TWorkspaceStep = (typeof WORKSPACE_STEPS)[number];

export type TWorkspaceOverview = {
  steps: Array<{ key: TWorkspaceStep; done: boolean; count: number }>;
  /** How many steps are done, for the progress bar. */
  done: number;
  balance: { availableMicro: number; giftMicro: number };
  incomeMicro: number;
  phoneBound: boolean;
};
