import { describe, expect, it } from "vitest";
import { FEISHU_EVENT, toGreetingTrigger, toInboundMessage, type TFeishuMessageEvent } from "./feishu-events";

const BOT = "ou_bot";
const msg = (
  m: Partial<NonNullable<TFeishuMessageEvent["message"]>>,
  sender: TFeishuMessageEvent["sender"] = { sender_id: { open_id: "ou_alice" }, sender_type: "user" },
): TFeishuMessageEvent => ({
  event_id: "ev1",
  sender,
  message: {
    message_id: "om_1",
    chat_id: "oc_1",
    chat_type: "p2p",
    message_type: "text",
    content: JSON.stringify({ text: "hi" }),
    create_time: "1700000000000",
    ...m,
  },
});

describe("toInboundMessage", () => {
  it("a one-to-one text: the sender is the conversation, the message id the external id and the reply context", () => {
    expect(toInboundMessage(msg({ content: JSON.stringify({ text: "  hello  there " }) }), BOT)).toEqual({
      externalId: "om_1",
      sender: { id: "ou_alice", name: "" },
      conversation: { kind: "contact", id: "ou_alice" },
      text: "hello there",
      mentionedBot: false,
      receivedAt: new Date(1700000000000),
      replyContext: { message_id: "om_1" },
    });
  });

  it("in a group: the chat is the conversation; the bot's mention is removed and marks it mentioned, others become @name", () => {
    const mentions = [
      { key: "@_user_1", id: { open_id: BOT }, name: "Zelin" },
      { key: "@_user_2", id: { open_id: "ou_bob" }, name: "Bob" },
      { key: "@_user_10", id: { open_id: "ou_ten" }, name: "Ten" },
    ];
    const m = toInboundMessage(msg({ chat_type: "group", content: JSON.stringify({ text: "@_user_1 ask @_user_2 and @_user_10, @_all" }), mentions }), BOT)!;
    expect(m).toMatchObject({ conversation: { kind: "group", id: "oc_1" }, mentionedBot: true, text: "ask @Bob and @Ten, @all" });
    const other = toInboundMessage(msg({ chat_type: "group", content: JSON.stringify({ text: "@_user_2 lunch?" }), mentions }), BOT)!;
    expect(other).toMatchObject({ mentionedBot: false, text: "@Bob lunch?" });
  });

  it("the bot's own open_id unknown: any mention counts as the bot's (Feishu only delivers group messages that mention it)", () => {
    const m = toInboundMessage(
      msg({ chat_type: "group", content: JSON.stringify({ text: "@_user_1 hi" }), mentions: [{ key: "@_user_1", id: { open_id: "ou_x" }, name: "X" }] }),
      null,
    )!;
    expect(m).toMatchObject({ mentionedBot: true, text: "hi" });
  });

  it("a post is read as its title and paragraphs, mentions and links included", () => {
    const post = {
      title: "Q",
      content: [
        [
          { tag: "at", user_id: "@_user_1" },
          { tag: "text", text: "when do you open?" },
        ],
        [
          { tag: "a", text: "site", href: "https://e.com" },
          { tag: "img", image_key: "k" },
        ],
        [{ tag: "code_block", language: "js", text: "x()" }],
      ],
    };
    const m = toInboundMessage(
      msg({ message_type: "post", content: JSON.stringify(post), mentions: [{ key: "@_user_1", id: { open_id: BOT }, name: "Zelin" }] }),
      BOT,
    )!;
    expect(m.text).toBe("Q\nwhen do you open?\nsite (https://e.com)\nx()");
    expect(m.mentionedBot).toBe(true);
  });

  it("nothing for other bots, pictures, broken content, empty text or a bare mention", () => {
    expect(toInboundMessage(msg({}, { sender_id: { open_id: "ou_app" }, sender_type: "app" }), BOT)).toBeNull();
    expect(toInboundMessage(msg({ message_type: "image", content: JSON.stringify({ image_key: "k" }) }), BOT)).toBeNull();
    expect(toInboundMessage(msg({ content: "{not json" }), BOT)).toBeNull();
    expect(toInboundMessage(msg({ content: JSON.stringify({ text: "   " }) }), BOT)).toBeNull();
    expect(
      toInboundMessage(
        msg({ chat_type: "group", content: JSON.stringify({ text: "@_user_1" }), mentions: [{ key: "@_user_1", id: { open_id: BOT }, name: "Zelin" }] }),
        BOT,
      ),
    ).toBeNull();
    expect(toInboundMessage({ event_id: "e" }, BOT)).toBeNull();
  });

  it("a missing or odd create_time falls back to now", () => {
    const before = Date.now();
    expect(toInboundMessage(msg({ create_time: "soon" }), BOT)!.receivedAt.getTime()).toBeGreaterThanOrEqual(before);
  });
});

describe("toGreetingTrigger", () => {
  it("users joining a group: the event's id, the group, the first user", () => {
    expect(
      toGreetingTrigger(FEISHU_EVENT.userAdded, {
        event_id: "ev",
        chat_id: "oc_g",
        name: "Team",
        users: [
          { name: "Bob", user_id: { open_id: "ou_bob" } },
          { name: "Al", user_id: { open_id: "ou_al" } },
        ],
      }),
    ).toEqual({
      externalId: "ev",
      target: { kind: "group", id: "oc_g", name: "Team" },
      who: { id: "ou_bob", name: "Bob" },
    });
    expect(toGreetingTrigger(FEISHU_EVENT.userAdded, { event_id: "ev", chat_id: "oc_g", users: [] })).toBeNull();
  });

  it("a user opening the chat: one trigger per user, however often they come back", () => {
    const a = toGreetingTrigger(FEISHU_EVENT.p2pEntered, { event_id: "ev1", chat_id: "oc_p", operator_id: { open_id: "ou_al" } });
    const b = toGreetingTrigger(FEISHU_EVENT.p2pEntered, { event_id: "ev2", chat_id: "oc_p", operator_id: { open_id: "ou_al" } });
    expect(a).toEqual({ externalId: "p2p_entered:ou_al", target: { kind: "contact", id: "ou_al" }, who: { id: "ou_al", name: "" } });
    expect(b).toEqual(a);
  });

  it("the bot added to a group greets the group; other events nothing", () => {
    expect(toGreetingTrigger(FEISHU_EVENT.botAdded, { event_id: "ev", chat_id: "oc_n", operator_id: { open_id: "ou_op" } })).toEqual({
      externalId: "ev",
      target: { kind: "group", id: "oc_n" },
      who: { id: "ou_op", name: "" },
    });
    expect(toGreetingTrigger("im.chat.disbanded_v1", { event_id: "ev", chat_id: "oc_n" })).toBeNull();
  });
});
