// Runs a piece of a test under one app review policy (APP_REVIEW_POLICY), whatever the run's default
// is, and puts the setting back afterwards. The in-process API server reads settings per request.
import { resetEnvCache, type TAppReviewPolicy } from "../../server/env";

export async function withReviewPolicy<T>(policy: TAppReviewPolicy, fn: () => Promise<T>): Promise<T> {
  const before = process.env.APP_REVIEW_POLICY;
  process.env.APP_REVIEW_POLICY = policy;
  resetEnvCache();
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.APP_REVIEW_POLICY;
    else process.env.APP_REVIEW_POLICY = before;
    resetEnvCache();
  }
}
