// What wechaty reports, in the gateway core's terms: messages, new friends and people joining a
// group become inbound messages and greeting triggers (bot-gateway/core/channel.ts).
import type { Contact, Friendship, Message, Room } from "wechaty";
import { types } from "wechaty";
import type { TGreetingTrigger, TInboundMessage } from "../../core/channel";

/** A text message someone else wrote, or null for the bot's own and for pictures, voice, files... */
export async function toInbound(msg: Message): Promise<TInboundMessage | null> {
  if (msg.self() || msg.type() !== types.Message.Text) return null;
  const talker = msg.talker();
  const room = msg.room();
  if (!room) {
    return {
      externalId: msg.id,
      sender: { id: talker.id, name: talker.name() },
      conversation: { kind: "contact", id: talker.id, name: talker.name() },
      text: msg.text().trim(),
      mentionedBot: true,
      receivedAt: msg.date(),
    };
  }
  const [topic, alias, mentionedBot, text] = await Promise.all([room.topic(), room.alias(talker).catch(() => undefined), msg.mentionSelf(), msg.mentionText()]);
  return {
    externalId: msg.id,
    sender: { id: talker.id, name: alias || talker.name() },
    conversation: { kind: "group", id: room.id, name: topic },
    text: text.trim(),
    mentionedBot,
    receivedAt: msg.date(),
  };
}

/** A confirmed friendship (the bot accepted a request, or was added): greet the new friend. */
export function friendGreeting(friendship: Friendship): TGreetingTrigger {
  const contact = friendship.contact();
  return {
    externalId: friendship.id,
    target: { kind: "contact", id: contact.id, name: contact.name() },
    who: { id: contact.id, name: contact.name() },
  };
}

/** People joined a group the bot is in: greet them in the group, once per group and people. */
export async function roomJoinGreeting(selfId: string, room: Room, invitees: Contact[]): Promise<TGreetingTrigger | null> {
  const joined = invitees.filter((c) => c.id !== selfId);
  if (!joined.length) return null;
  const ids = joined.map((c) => c.id).sort();
  return {
    externalId: `${room.id}:${ids.join(",")}`,
    target: { kind: "group", id: room.id, name: await room.topic() },
    who: { id: joined[0]!.id, name: joined.map((c) => c.name()).join(", ") },
  };
}
