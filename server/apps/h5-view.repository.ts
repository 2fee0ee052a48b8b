// The H5 pages' reads of an app: what a consumer sees (never plans' internals or keys).
import { getDb, type TDbOrTx } from "../db/client";

const H5_APP = {
  id: true,
  ownerAccountId: true,
  enterpriseId: true,
  type: true,
  state: true,
  removedReason: true,
  removedAt: true,
  name: true,
  nameEn: true,
  iconUrl: true,
  introduction: true,
  introductionEn: true,
  tags: true,
  style: true,
  recommendedQuestions: true,
  menuItems: true,
  inputModes: true,
  outputModes: true,
  autoPlay: true,
  speaker: true,
  settings: true,
  backgroundUrl: true,
  welcomeMessages: true,
  mode: true,
  freePerDay: true,
  trialDays: true,
  isPublic: true,
  deletedAt: true,
  owner: { select: { id: true, nickname: true, avatarUrl: true, enterpriseId: true } },
  category: { select: { slug: true, names: true } },
  // The agent the chat runs (as the runtime picks it): its variables are asked for before chatting.
  agents: { orderBy: [{ sortOrder: "asc" }, { agentId: "asc" }] as { sortOrder?: "asc"; agentId?: "asc" }[], take: 1, select: { agentId: true } },
} as const;

export async function findH5App(id: string, tx?: TDbOrTx) {
  const db = tx ?? getDb();
  return db.app.findUnique({ where: { id }, select: H5_APP });
}

export type TH5AppRow = NonNullable<Awaited<ReturnType<typeof findH5App>>>;
