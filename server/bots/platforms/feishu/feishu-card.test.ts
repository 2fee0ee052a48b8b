import { describe, expect, it } from "vitest";
import { FEISHU_CARD_TEXT_MAX_BYTES, cardContent, markdownCard, splitCardText, thinkingCard } from "./feishu-card";

const contents = (card: any) => card.body.elements.map((e: { content: string }) => e.content);

describe("Feishu cards", () => {
  it("a finished answer: a shared JSON 2.0 card with one markdown element and a plain summary for the chat list", () => {
    const card = markdownCard("## Hours\n\nWe open at **9** — see [the map](https://e.com/m).");
    expect(card).toEqual({
      schema: "2.0",
      config: { update_multi: true, width_mode: "fill", summary: { content: "Hours We open at 9 — see the map (https://e.com/m)." } },
      body: { elements: [{ tag: "markdown", content: "## Hours\n\nWe open at **9** — see [the map](https://e.com/m)." }] },
    });
  });

  it("pictures by URL become links (a card image needs an uploaded key, and Feishu refuses the card otherwise)", () => {
    expect(contents(markdownCard('Look: ![a chart](https://e.com/c.png "t") and ![](https://e.com/x.png)'))).toEqual([
      "Look: [a chart](https://e.com/c.png) and [https://e.com/x.png](https://e.com/x.png)",
    ]);
  });

  it("a long summary is cut to 60 characters", () => {
    const s = (markdownCard("字".repeat(100)).config as { summary: { content: string } }).summary.content;
    expect([...s]).toHaveLength(60);
    expect(s.endsWith("…")).toBe(true);
  });

  it("the thinking card: the text so far above a grey note, in every reader's language", () => {
    const empty = thinkingCard("") as any;
    expect(empty.body.elements).toHaveLength(1);
    expect(empty.body.elements[0]).toMatchObject({ tag: "markdown", text_size: "notation", content: "<font color='grey'>正在思考…</font>" });
    expect(empty.body.elements[0].i18n_content).toEqual({
      zh_cn: "<font color='grey'>正在思考…</font>",
      zh_hk: "<font color='grey'>正在思考…</font>",
      zh_tw: "<font color='grey'>正在思考…</font>",
      en_us: "<font color='grey'>Thinking…</font>",
      pt_br: "<font color='grey'>Pensando…</font>",
    });
    expect(empty.config.summary.i18n_content.en_us).toBe("Thinking…");
    const partial = thinkingCard("Once upon") as any;
    expect(contents(partial)).toEqual(["Once upon", "<font color='grey'>正在思考…</font>"]);
    expect(partial.config.summary).toEqual({ content: "Once upon" });
  });

  it("text is split so each card stays within Feishu's 30 KB card limit, escaped characters counted", () => {
    const text = Array.from({ length: 4000 }, (_, i) => `Line ${i}: "quoted" and \\ escaped.`).join("\n");
    const parts = splitCardText(text);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) {
      expect(Buffer.byteLength(JSON.stringify(p)) - 2).toBeLessThanOrEqual(FEISHU_CARD_TEXT_MAX_BYTES);
      expect(Buffer.byteLength(cardContent(markdownCard(p)))).toBeLessThanOrEqual(30 * 1024);
    }
    expect(parts.join("\n")).toBe(text);
    expect(splitCardText("")).toEqual([""]);
  });
});
