import { describe, expect, it } from "vitest";
import { markdownTitle } from "./dingtalk-api";
import { readReplyContext, readRobotMessage, stripMention } from "./robot-message";
import { reconnectDelayMs } from "./stream-client";

const base = {
  msgId: "msgA1",
  msgtype: "text",
  conversationId: "cidXYZ==",
  conversationType: "1",
  senderId: "$:LWCP_v1:$abc",
  senderNick: "Li Lei",
  senderStaffId: "staff001",
  sessionWebhook: "https://oapi.dingtalk.com/robot/sendBySession?session=s1",
  sessionWebhookExpiredTime: 1_900_000_000_000,
  robotCode: "dingrobot",
  createAt: 1_700_000_000_000,
  text: { content: "  what is Zelin?  " },
};

describe("readRobotMessage", () => {
  it("reads a one-to-one text message: the sender is the conversation, and the robot is addressed", () => {
    const m = readRobotMessage(base, "Helper")!;
    expect(m).toMatchObject({
      externalId: "msgA1",
      sender: { id: "staff001", name: "Li Lei" },
      conversation: { kind: "contact", id: "staff001" },
      text: "what is Zelin?",
      mentionedBot: true,
      receivedAt: new Date(1_700_000_000_000),
    });
    expect(m.replyContext).toEqual({
      sessionWebhook: base.sessionWebhook,
      sessionWebhookExpiredTime: base.sessionWebhookExpiredTime,
      conversationId: "cidXYZ==",
      conversationType: "1",
      robotCode: "dingrobot",
      senderStaffId: "staff001",
    });
  });

  it("takes the senderId for people outside the organisation (no staff id)", () => {
    const m = readRobotMessage({ ...base, senderStaffId: undefined }, "Helper")!;
    expect(m.sender.id).toBe("$:LWCP_v1:$abc");
    expect(m.conversation).toMatchObject({ kind: "contact", id: "$:LWCP_v1:$abc" });
  });

  it("reads a group message: the group is the conversation; mentioned only when the robot is in the @ list", () => {
    const g = { ...base, conversationType: "2", conversationTitle: "Team", text: { content: "@Helper  hi there" } };
    const mentioned = readRobotMessage({ ...g, isInAtList: true }, "Helper")!;
    expect(mentioned).toMatchObject({ conversation: { kind: "group", id: "cidXYZ==", name: "Team" }, mentionedBot: true, text: "hi there" });
    expect(readRobotMessage({ ...g, isInAtList: false }, "Helper")!.mentionedBot).toBe(false);
    expect(readRobotMessage({ ...g, isInAtList: undefined }, "Helper")!.mentionedBot).toBe(false);
  });

  it("reads rich text and voice transcriptions; pictures, files and empty text have nothing to answer", () => {
    expect(
      readRobotMessage(
        { ...base, msgtype: "richText", text: undefined, content: { richText: [{ text: "line one" }, { pictureDownloadCode: "x" }, { text: "line two" }] } },
        "Helper",
      )!.text,
    ).toBe("line one\nline two");
    expect(readRobotMessage({ ...base, msgtype: "audio", text: undefined, content: { recognition: "spoken words" } }, "Helper")!.text).toBe("spoken words");
    expect(readRobotMessage({ ...base, msgtype: "picture", text: undefined, content: { downloadCode: "x" } }, "Helper")).toBeNull();
    expect(readRobotMessage({ ...base, msgtype: "file", text: undefined }, "Helper")).toBeNull();
    expect(readRobotMessage({ ...base, text: { content: " @Helper " } }, "Helper")).toBeNull();
    expect(readRobotMessage({ ...base, msgId: "" }, "Helper")).toBeNull();
    expect(readRobotMessage("not an object", "Helper")).toBeNull();
  });
});

describe("stripMention", () => {
  it("removes the robot's @name (with special characters) but not another person's", () => {
    expect(stripMention("@Bot (v2) hello", "Bot (v2)")).toBe("hello");
    expect(stripMention("hello @Bot", "Bot")).toBe("hello");
    expect(stripMention("@Bottle hello", "Bot")).toBe("@Bottle hello");
    expect(stripMention("ask @Han Meimei", "Bot")).toBe("ask @Han Meimei");
  });
});

describe("readReplyContext", () => {
  it("takes back what readRobotMessage stored, through JSON", () => {
    const ctx = readRobotMessage(base, "Helper")!.replyContext;
    expect(readReplyContext(JSON.parse(JSON.stringify(ctx)))).toEqual(ctx);
  });
  it("refuses something that is not a DingTalk reply context", () => {
    expect(readReplyContext(undefined)).toBeNull();
    expect(readReplyContext({ conversationId: "c", conversationType: "3" })).toBeNull();
    expect(readReplyContext({ messageId: "feishu" })).toBeNull();
  });
});

describe("reconnectDelayMs", () => {
  it("starts at about a second, doubles, and stops at 60 s, with jitter both ways", () => {
    expect(reconnectDelayMs(0, () => 0.5)).toBe(1000);
    expect(reconnectDelayMs(1, () => 0.5)).toBe(2000);
    expect(reconnectDelayMs(3, () => 0.5)).toBe(8000);
    expect(reconnectDelayMs(0, () => 0)).toBe(800);
    expect(reconnectDelayMs(0, () => 1)).toBe(1200);
    expect(reconnectDelayMs(6, () => 0.5)).toBe(60_000);
    expect(reconnectDelayMs(50, () => 1)).toBe(60_000);
    expect(reconnectDelayMs(50, () => 0)).toBe(48_000);
  });
});

describe("markdownTitle", () => {
  it("is the first line without markdown, cut to 30 characters; the fallback for an empty text", () => {
    expect(markdownTitle("## **Opening hours**\n\nWe open at 9.", "Bot")).toBe("Opening hours");
    expect(markdownTitle("- a list item", "Bot")).toBe("a list item");
    expect(markdownTitle("\n\n", "Bot")).toBe("Bot");
    expect([...markdownTitle("长".repeat(40), "Bot")]).toHaveLength(30);
  });
});
