// First-run setup. While no account holds platform_admin, /setup creates the first one. An exposed
// fresh install must not be taken over by whoever finds it first, so the page asks for a one-time
// code that only the operator sees: printed in the server log when a web process starts, or by
// `npm run admin -- setup-code`. Only the code's hash is kept, in the database, so that every web
// worker and instance checks the same code and a restart does not lose it. Wrong codes count as
// failed logins of their address (login-throttle.ts). Creating the administrator and taking the
// code away happen in one transaction: two people racing with the same code make one administrator.
import crypto from "node:crypto";
import { AppError } from "../errors/app-error";
import { isUniqueViolation, runTransaction } from "../db/transaction";
import { logger } from "../lib/logger";
import { sha256 } from "../lib/secret-box";
import { singleton } from "../lib/singleton";
import * as accountsRepo from "../accounts/accounts.repository";
import { hashPassword } from "../auth/password";
import { assertLoginAllowed, recordLoginAttempt } from "../auth/login-throttle";
import { toSessionAccount } from "../accounts/session-account";
import { startSession } from "../auth/session.service";
import type { TRequestMeta } from "../auth/auth.service";
import { grantExperienceBonus } from "../money/editions/experience-bonus";
import { isNameReserved } from "../money/editions/registration-reservation";
import { formatSetupCode, SETUP_CODE_ALPHABET, SETUP_CODE_LENGTH, type TSetupInput } from "./setup.schema";
import * as repo from "./setup.repository";

/**
 * Instances that start within this long of the one that issued the code keep its code instead of
 * replacing it (several web instances of one deployment start together); a later start issues a
 * fresh code, so a restarted install always prints one that works.
 */
export const SIBLING_START_MS = 10 * 60_000;
/** While setup is open, how long a process trusts its last "no administrator yet". */
const OPEN_RECHECK_MS = 5_000;

// Once an administrator exists setup never opens again in this process: pages ask for free. On
// globalThis, so the page bundle's copy of this module sees what the API's copy did.
const state = singleton("setup-state", () => ({ closedSeen: false, openCheckedAt: 0 }));

export async function isSetupOpen(now = Date.now()): Promise<boolean> {
  if (state.closedSeen) return false;
  if (now - state.openCheckedAt < OPEN_RECHECK_MS) return true;
  if (await repo.platformAdminExists()) {
    state.closedSeen = true;
    return false;
  }
  state.openCheckedAt = now;
  return true;
}

function generateSetupCode() {
  let code = "";
  for (let i = 0; i < SETUP_CODE_LENGTH; i++) code += SETUP_CODE_ALPHABET[crypto.randomInt(SETUP_CODE_ALPHABET.length)];
  return code;
}

const hashSetupCode = (normalized: string) => sha256(`zelin-setup:${normalized}`);

function sameHash(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export type TIssuedSetupCode = { state: "closed" } | { state: "issued"; code: string } | { state: "kept"; issuedAt: Date };

/**
 * A new one-time code, or "closed" when an administrator exists. Without `force`, a code another
 * instance issued within SIBLING_START_MS is kept ("kept": that instance printed it).
 */
export async function issueSetupCode(opts: { force?: boolean } = {}, now = new Date()): Promise<TIssuedSetupCode> {
  if (await repo.platformAdminExists()) {
    state.closedSeen = true;
    await repo.deleteSetupCode();
    return { state: "closed" };
  }
  const code = generateSetupCode();
  const replaceIssuedBefore = opts.force ? null : new Date(now.getTime() - SIBLING_START_MS);
  if (await repo.saveSetupCode(hashSetupCode(code), now, replaceIssuedBefore)) return { state: "issued", code: formatSetupCode(code) };
  return { state: "kept", issuedAt: (await repo.findSetupCode())?.issuedAt ?? now };
}

/** At a web process's start: one line in the log telling the operator how to finish the install. */
export async function announceSetupCode(origin: string, print: (line: string) => void = (line) => logger.warn(line)) {
  const issued = await issueSetupCode();
  const page = `${origin.replace(/\/$/, "")}/setup`;
  if (issued.state === "issued") print(`SETUP: no administrator yet. Open ${page} and enter code ${issued.code}`);
  if (issued.state === "kept") {
    print(
      `SETUP: no administrator yet. Open ${page} and enter the code another instance printed at ${issued.issuedAt.toISOString()}, or run \`npm run admin -- setup-code\` for a new one`,
    );
  }
  return issued;
}

/**
 * Creates the first platform administrator and signs them in. Refusals write nothing but the
 * failed attempt a wrong code counts as.
 */
export async function completeSetup(input: TSetupInput, meta: TRequestMeta) {
  if (!(await isSetupOpen())) throw new AppError("setup_closed");
  // Per address: one global counter would let anyone keep the real operator out.
  const throttleKey = `#setup@${meta.ip}`;
  await assertLoginAllowed(throttleKey, meta.ip);
  const stored = await repo.findSetupCode();
  if (!stored || !sameHash(stored.hash, hashSetupCode(input.code))) {
    await recordLoginAttempt(throttleKey, meta.ip, false);
    throw new AppError("setup_code_invalid");
  }
  if ((await accountsRepo.accountNameExists(input.account)) || (await isNameReserved(input.account))) throw new AppError("account_taken");
  const passwordHash = await hashPassword(input.password);
  const now = new Date();
  let account;
  try {
    account = await runTransaction(async (tx) => {
      if (!(await repo.consumeSetupCode(stored.hash, tx))) {
        // Someone else used the code a moment ago (or it was replaced).
        throw new AppError((await repo.platformAdminExists(tx)) ? "setup_closed" : "setup_code_invalid");
      }
      if (await repo.platformAdminExists(tx)) throw new AppError("setup_closed");
      const created = await accountsRepo.createAccount(
        {
          account: input.account,
          nickname: input.nickname || input.account,
          language: meta.language,
          passwordHash,
          passwordChangedAt: now,
          // The operator usually tries the product too: an administrator who can also build.
          roles: ["platform_admin", "individual_developer"],
        },
        tx,
      );
      // Like every new account, so the operator can try a paid model or plan right away.
      await grantExperienceBonus(created.id, tx);
      return created;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("account_taken");
    throw err;
  }
  state.closedSeen = true;
  await recordLoginAttempt(throttleKey, meta.ip, true);
  return { account: toSessionAccount(account), session: await startSession(account.id, meta) };
}
