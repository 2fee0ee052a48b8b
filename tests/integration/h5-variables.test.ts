// An H5 app whose agent has variables: the H5 view hands the chat the live version's variables (not
// a newer draft's), a turn without a required one is refused with a message naming it in the
// visitor's language (no dialogue, no message, no use, no coin moved, nobody asked upstream), a
// choice outside the options and a value outside the length range likewise, and a turn with values
// is answered with them in the prompt and keeps them for the rest of the conversation.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { saveAgentDraft } from "../../server/agents/agents.service";
import { ZAgentInput } from "../../server/agents/agents.schema";
import { readLiveVariables, toVariableNotes } from "../../server/apps/agent-variables.service";
import { lookupH5App } from "../../server/apps/h5-view.service";
import { getDb } from "../../server/db/client";
import { ERROR_CODES } from "../../server/errors/codes";
import { getWallet } from "../../server/money/ledger.service";
import { Browser } from "../helpers/api-client";
import { createTestApp } from "../helpers/apps";
import { contentOf, dataOf, makeAgent, makeUser, names, sendSse, useChatHarness, type TUser } from "../helpers/chat-runtime";

const h = useChatHarness();
const base = () => h.api.base;
let ip = 0;

const VARIABLES = [
  { name: "city", prompt: "Which city?", type: "fill", required: true },
  { name: "tone", prompt: "", type: "select", required: true, options: ["formal", "casual"], default: "casual" },
  { name: "nickname", type: "fill", required: false, range: { min: 2, max: 8 } },
];

function makeVisitor(lang = "en"): TUser {
  const browser = new Browser(base(), `10.67.${Math.floor(++ip / 250)}.${ip % 250}`);
  browser.cookies.set("zl_visitor", crypto.randomBytes(16).toString("hex"));
  browser.cookies.set("lang", lang);
  return { id: "", browser, actor: { id: "", roles: [], enterpriseId: null } };
}

/** An on-shelf H5 app of an agent on the fake upstream whose prompt uses the variables. */
async function variablesApp() {
  const owner = await makeUser(base());
  const agent = await makeAgent(h, owner, {
    publish: true,
    config: { prompt: "You guide visitors around {{city}} in a {{tone}} tone. Call them {{nickname}}.", variables: VARIABLES },
  });
  const { appId } = await createTestApp({ owner: owner.actor, agentId: agent.agentId });
  return { owner, appId, ...agent };
}

const send = (user: TUser, body: Record<string, unknown>) => sendSse(base(), user, body, { path: "/api/v2/app/send_message/sse" });
const errorOf = (r: Awaited<ReturnType<typeof send>>) => dataOf(r, "error")[0] as { status: number; description: string; data: unknown } | undefined;
const systemPromptOf = (body: { messages: { role: string; content: string }[] }) => body.messages.find((m) => m.role === "system")?.content ?? "";
const rowsOf = async (appId: string) => ({
  dialogues: await getDb().dialogue.count({ where: { appId } }),
  messages: await getDb().chatMessage.count({ where: { dialogue: { appId } } }),
  uses: await getDb().appUse.count({ where: { appId } }),
});

describe("an H5 app's agent variables", () => {
  it("the H5 view carries the live version's variables, and the app form's notes say which are required", async () => {
    const { owner, appId, agentId, modelKey } = await variablesApp();
    const view = await lookupH5App(appId, null);
    expect(view.ok).toBe(true);
    if (!view.ok) return;
    expect(view.app.variables.map((v) => [v.name, v.required, v.type, v.default])).toEqual([
      ["city", true, "fill", ""],
      ["tone", true, "select", "casual"],
      ["nickname", false, "fill", ""],
    ]);
    expect(view.app.variables[1].options).toEqual(["formal", "casual"]);

    // A new draft with another variable changes nothing until it goes live: the chat runs the live version.
    await saveAgentDraft(owner.actor, {
      id: agentId,
      agent: ZAgentInput.parse({
        name: "测试助手",
        introduction: "An agent for tests",
        version: "1.1.0",
        model_key: modelKey,
        variables: [...VARIABLES, { name: "extra", type: "fill", required: true }],
      }),
    });
    expect(await getDb().agentVersion.count({ where: { agentId, state: "draft" } })).toBe(1);
    const notes = toVariableNotes((await readLiveVariables([agentId])).get(agentId)!);
    expect(notes).toEqual([
      { name: "city", required: true, hasDefault: false },
      { name: "tone", required: true, hasDefault: true },
      { name: "nickname", required: false, hasDefault: false },
    ]);
    expect((await readLiveVariables(["no-such-agent"])).get("no-such-agent")).toEqual([]);
  });

  it("refuses a turn without a required variable, naming it in the visitor's language: nothing stored, no coins, nobody asked", async () => {
    const { owner, appId, key } = await variablesApp();
    const walletBefore = await getWallet(owner.id);

    const en = await send(makeVisitor("en"), { app_id: appId, content: "Where should I eat?" });
    expect(names(en)).toEqual(["error"]);
    expect(errorOf(en)).toMatchObject({
      status: ERROR_CODES.validation_failed.status,
      description: "Fill in “city” first: it is required",
      data: { fields: [{ path: "city", message: "validation.variable_missing" }] },
    });

    // Blank is as missing; the message is in the visitor's language.
    const zh = await send(makeVisitor("zh_hans"), { app_id: appId, content: "吃什么？", variables: { city: "   " } });
    expect(errorOf(zh)?.description).toBe("请先填写“city”，这是必填项");

    // A choice outside the options, and a value outside the length range, each name their variable.
    const option = await send(makeVisitor(), { app_id: appId, content: "hi", variables: { city: "Macau", tone: "angry" } });
    expect(errorOf(option)?.description).toBe("Choose “tone” from its options");
    const length = await send(makeVisitor("pt"), { app_id: appId, content: "hi", variables: { city: "Macau", nickname: "a" } });
    expect(errorOf(length)?.description).toBe("“nickname” deve ter de 2 a 8 caracteres");

    expect(await rowsOf(appId)).toEqual({ dialogues: 0, messages: 0, uses: 0 });
    expect(h.fake.requestsFor(key)).toBe(0);
    expect(await getWallet(owner.id)).toEqual(walletBefore);
  });

  it("answers with the values in the prompt, fills defaults, and keeps the values for the conversation", async () => {
    const { owner, appId, key } = await variablesApp();
    const walletBefore = await getWallet(owner.id);
    const visitor = makeVisitor();

    const first = await send(visitor, { app_id: appId, content: "Where should I eat?", variables: { city: "Lisbon", nickname: "Ana" } });
    expect(names(first)).toContain("close");
    expect(contentOf(first)).toBe("word0 word1 word2 ");
    expect(systemPromptOf(h.fake.receivedFor(key)[0].body)).toContain("You guide visitors around Lisbon in a casual tone. Call them Ana.");
    const dialogueId = dataOf(first, "close")[0].dialogue_id as string;
    // The dialogue keeps what was given; a default is applied at each turn.
    expect((await getDb().dialogue.findUniqueOrThrow({ where: { id: dialogueId }, select: { variables: true } })).variables).toEqual({
      city: "Lisbon",
      nickname: "Ana",
    });

    // The next turn of the dialogue needs no values again; a changed one applies from then on.
    const second = await send(visitor, { app_id: appId, dialogue_id: dialogueId, content: "And after dinner?" });
    expect(names(second)).toContain("close");
    expect(systemPromptOf(h.fake.receivedFor(key)[1].body)).toContain("around Lisbon in a casual tone");
    const third = await send(visitor, { app_id: appId, dialogue_id: dialogueId, content: "More formally, please", variables: { tone: "formal" } });
    expect(names(third)).toContain("close");
    expect(systemPromptOf(h.fake.receivedFor(key)[2].body)).toContain("around Lisbon in a formal tone");

    expect(await rowsOf(appId)).toEqual({ dialogues: 1, messages: 6, uses: 3 });
    // Replies are paid by the app's owner: the refusals above cost nothing because these cost something.
    const after = await getWallet(owner.id);
    expect(after.gift + after.spendable).toBeLessThan(walletBefore.gift + walletBefore.spendable);
  });
});
