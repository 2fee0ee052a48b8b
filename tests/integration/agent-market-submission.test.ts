// Submitting a published agent to the market as it is: no new version to invent. The published
// version waits in the review queue while it keeps serving its owner's apps; approved, it goes on
// the shelf with its first publish date; refused or withdrawn, it is simply published again (the
// reason kept beside it). One submission at a time, a newer publish replaces the waiting one, and
// another account's agent is not found.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import * as agents from "../../server/agents/agents.service";
import { ZSubmitAgentInput } from "../../server/agents/agents.schema";
import { getDb } from "../../server/db/client";
import { mapError } from "../../server/errors/map-error";
import { listAgentMarket } from "../../server/market/catalog.service";
import { Browser } from "../helpers/api-client";
import { createTestApp, makeAppOwner, makeLiveAgent } from "../helpers/apps";
import { contentOf, names, sendSse, useChatHarness, type TUser } from "../helpers/chat-runtime";

const h = useChatHarness();
let ip = 0;

function makeVisitor(): TUser {
  const browser = new Browser(h.api.base, `10.78.${Math.floor(++ip / 250)}.${ip % 250}`);
  browser.cookies.set("zl_visitor", crypto.randomBytes(16).toString("hex"));
  browser.cookies.set("lang", "en");
  return { id: "", browser, actor: { id: "", roles: [], enterpriseId: null } };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e) => mapError(e, "en").code,
  );
const stateOf = async (versionId: string) => (await getDb().agentVersion.findUniqueOrThrow({ where: { id: versionId }, select: { state: true } })).state;
const versionsOf = (agentId: string) => getDb().agentVersion.count({ where: { agentId } });

/** A developer's agent published for their own use, with an app on the shelf that runs it. */
async function publishedAgentWithApp() {
  const owner = await makeAppOwner();
  const agentId = await makeLiveAgent(owner);
  const { appId } = await createTestApp({ owner, agentId });
  const live = (await agents.getAgent(owner, { id: agentId })).live!;
  return { owner, agentId, appId, live };
}

const chat = async (appId: string) => {
  const r = await sendSse(h.api.base, makeVisitor(), { app_id: appId, content: "hello" }, { path: "/api/v2/app/send_message/sse" });
  return { names: names(r), content: contentOf(r) };
};

describe("submitting a published agent to the market as it is", () => {
  it("puts the published version in review without a new version; it keeps serving the app; approval lists it", async () => {
    const admin = await makeAppOwner({ roles: ["platform_admin"] });
    const { owner, agentId, appId, live } = await publishedAgentWithApp();
    expect(live).toMatchObject({ state: "published", version: "1.0.0" });

    const submitted = await agents.submitAgent(owner, { id: agentId });
    expect(submitted.live).toMatchObject({ id: live.id, state: "published_in_review", version: "1.0.0" });
    expect(submitted.under_review).toMatchObject({ id: live.id });
    expect(await versionsOf(agentId)).toBe(1);
    // While reviewed, the app runs it as before.
    expect((await chat(appId)).names).toContain("close");

    const queue = await agents.listReviewQueue(admin);
    expect(queue.find((q) => q.id === live.id)).toMatchObject({ state: "published_in_review", agent_id: agentId });

    const approved = await agents.approveAgentVersion(admin, { versionId: live.id });
    expect(approved).toMatchObject({ state: "on_shelf", version: "1.0.0", published_at: live.published_at });
    expect((await listAgentMarket({ limit: 50 })).items.map((a) => a.id)).toContain(agentId);
    expect((await agents.getUpdateLog(null, { id: agentId })).entries).toEqual([
      expect.objectContaining({ version: "1.0.0", published_at: live.published_at }),
    ]);
    expect((await chat(appId)).names).toContain("close");
  });

  it("a refused listing leaves the version published with the reason; resubmitting clears it; withdrawing keeps it published", async () => {
    const admin = await makeAppOwner({ roles: ["platform_admin"] });
    const { owner, agentId, appId, live } = await publishedAgentWithApp();
    await agents.submitAgent(owner, { id: agentId, source: "published" });

    expect(await codeOf(agents.rejectAgentVersion(admin, { versionId: live.id, reason: "  " }))).toBe("validation_failed");
    expect(await stateOf(live.id)).toBe("published_in_review");
    const refused = await agents.rejectAgentVersion(admin, { versionId: live.id, reason: "Introduction promises too much" });
    expect(refused).toMatchObject({ state: "published", removed_reason: "Introduction promises too much", reviewed_at: null });
    expect((await chat(appId)).names).toContain("close");
    expect((await listAgentMarket({ limit: 50 })).items.map((a) => a.id)).not.toContain(agentId);

    const again = await agents.submitAgent(owner, { id: agentId });
    expect(again.live).toMatchObject({ state: "published_in_review", removed_reason: null });
    const withdrawn = await agents.withdrawAgent(owner, { id: agentId });
    expect(withdrawn).toMatchObject({ live: { id: live.id, state: "published" }, under_review: null, draft: null });
    expect(await versionsOf(agentId)).toBe(1);
  });

  it("submits one version at a time: the draft by default, the published one when asked; the other is then refused", async () => {
    const { owner, agentId, live } = await publishedAgentWithApp();
    const detail = await agents.getAgent(owner, { id: agentId });
    await agents.saveAgentDraft(owner, { id: agentId, agent: { ...detail.config, version: "1.1.0", update_note: "better answers" } });

    const byDefault = await agents.submitAgent(owner, { id: agentId });
    expect(byDefault.under_review).toMatchObject({ version: "1.1.0", state: "under_review" });
    expect(byDefault.live).toMatchObject({ id: live.id, state: "published" });
    expect(await codeOf(agents.submitAgent(owner, { id: agentId, source: "published" }))).toBe("repeat_action");
    await agents.withdrawAgent(owner, { id: agentId });

    const asked = await agents.submitAgent(owner, { id: agentId, source: "published" });
    expect(asked.under_review).toMatchObject({ id: live.id, state: "published_in_review" });
    expect(asked.draft).toMatchObject({ version: "1.1.0" });
    expect(await codeOf(agents.submitAgent(owner, { id: agentId, source: "draft" }))).toBe("repeat_action");
    expect(await codeOf(agents.submitAgent(owner, { id: agentId }))).toBe("repeat_action");
  });

  it("publishing a newer version retires the one waiting in review, which leaves the queue", async () => {
    const admin = await makeAppOwner({ roles: ["platform_admin"] });
    const { owner, agentId, appId, live } = await publishedAgentWithApp();
    await agents.submitAgent(owner, { id: agentId });
    const detail = await agents.getAgent(owner, { id: agentId });
    await agents.saveAgentDraft(owner, { id: agentId, agent: { ...detail.config, version: "2.0.0" } });
    const published = await agents.publishAgent(owner, { id: agentId });
    expect(published.live).toMatchObject({ version: "2.0.0", state: "published" });
    expect(published.under_review).toBeNull();
    expect(await stateOf(live.id)).toBe("upgraded");
    expect((await agents.listReviewQueue(admin)).map((q) => q.id)).not.toContain(live.id);
    expect(await codeOf(agents.approveAgentVersion(admin, { versionId: live.id }))).toBe("invalid_state_transition");
    expect((await chat(appId)).names).toContain("close");
  });

  it("a version that goes invalid while reviewed recovers as published, not listed", async () => {
    const { owner, agentId, live } = await publishedAgentWithApp();
    await agents.submitAgent(owner, { id: agentId });
    await agents.invalidateAgent(agentId, "training set failed");
    expect(await stateOf(live.id)).toBe("invalid");
    await agents.restoreAgent(agentId);
    expect(await stateOf(live.id)).toBe("published");
  });

  it("refuses what cannot be submitted and changes nothing: nothing published, someone else's agent, a listed version", async () => {
    const admin = await makeAppOwner({ roles: ["platform_admin"] });
    const { owner, agentId, live } = await publishedAgentWithApp();
    const stranger = await makeAppOwner();
    expect(await codeOf(agents.submitAgent(stranger, { id: agentId }))).toBe("not_found");
    expect(await codeOf(agents.submitAgent(owner, { id: agentId, source: "draft" }))).toBe("invalid_state_transition");
    expect(await codeOf(agents.withdrawAgent(owner, { id: agentId }))).toBe("invalid_state_transition");
    // As the submit procedure parses it: an unknown source is refused before the service runs.
    expect(await codeOf((async () => agents.submitAgent(owner, ZSubmitAgentInput.parse({ id: agentId, source: "elsewhere" })))())).toBe("validation_failed");
    expect(await stateOf(live.id)).toBe("published");

    await agents.submitAgent(owner, { id: agentId });
    await agents.approveAgentVersion(admin, { versionId: live.id });
    expect(await codeOf(agents.submitAgent(owner, { id: agentId }))).toBe("invalid_state_transition");
    expect(await codeOf(agents.approveAgentVersion(admin, { versionId: live.id }))).toBe("repeat_action");
    expect(await codeOf(agents.rejectAgentVersion(admin, { versionId: live.id, reason: "late" }))).toBe("invalid_state_transition");
    expect(await stateOf(live.id)).toBe("on_shelf");
  });
});
