// Generated pictures and videos as the chats render them: the markdown both chats share, the
// console's reply bubble and the H5 message, each rendered to HTML with the English translations.
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { beforeAll, describe, expect, it } from "vitest";
import type { i18n as TI18n } from "i18next";
import { createServerI18n } from "../../i18n/i18n.server";
import { H5Markdown } from "../h5/h5-markdown";
import { H5Message } from "../h5/h5-message";
import type { TChatMedia, TGeneration } from "./chat-media";
import type { TChatMessage } from "./chat-state";
import { MarkdownView } from "./markdown-view";
import { MessageBubble } from "./message-bubble";

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createServerI18n("en");
});

const render = (node: ReactNode) => renderToStaticMarkup(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);
const count = (html: string, part: string) => html.split(part).length - 1;

const reply = (over: Partial<TChatMessage>): TChatMessage => ({
  key: "a",
  id: "r1",
  role: "assistant",
  content: "",
  reasoning: "",
  functions: [],
  retrieve: [],
  status: "streaming",
  feedback: "none",
  replacesId: null,
  notice: null,
  ...over,
});
const job = (state: TGeneration["state"], progress: number, kind: TGeneration["kind"] = "image"): TGeneration => ({ jobId: "j1", kind, state, progress });
const agent = { name: "Painter", avatar_url: null, show_reasoning: true };
const bubble = (msg: TChatMessage) =>
  render(<MessageBubble row={{ key: msg.key, versions: [msg] }} agent={agent} canRegenerate onFeedback={() => {}} onRegenerate={() => {}} />);
const h5 = (msg: TChatMessage) => render(<H5Message msg={msg} qa={false} actions={{ onFeedback: () => {}, onCopy: () => {} }} />);

describe("a reply's markdown with generated media", () => {
  it("plays a link to a video in place, with controls, inline on phones and only its metadata loaded", () => {
    const html = render(<MarkdownView text={"[▶ 1](/files/jobs/v.mp4)"} />);
    expect(html).toContain('<video class="chat-md__video" src="/files/jobs/v.mp4"');
    expect(html).toMatch(/<video[^>]* controls=""/);
    expect(html).toMatch(/<video[^>]* playsinline=""/);
    expect(html).toMatch(/<video[^>]* preload="metadata"/);
    expect(html).not.toMatch(/<video[^>]* poster=/);
  });

  it("shows the poster the reply's media name, and plays a link the media call a video whatever its address", () => {
    const media: TChatMedia[] = [{ kind: "video", url: "https://zelin.test/files/jobs/v1", posterUrl: "https://zelin.test/files/jobs/v1.jpg" }];
    const html = render(<MarkdownView text={"[▶ 1](https://zelin.test/files/jobs/v1)"} media={media} />);
    expect(html).toMatch(/<video[^>]* src="https:\/\/zelin.test\/files\/jobs\/v1"[^>]* poster="https:\/\/zelin.test\/files\/jobs\/v1.jpg"/);
  });

  it("makes a picture open full size in a new tab, and a picture inside a link stays inside that one link", () => {
    const html = render(<MarkdownView text={"![1](/files/jobs/a.png)"} />);
    expect(html).toMatch(
      /<a class="chat-md__picture" href="\/files\/jobs\/a.png" target="_blank" rel="noopener noreferrer"[^>]*><img src="\/files\/jobs\/a.png" alt="1"/,
    );
    const linked = render(<MarkdownView text={"[![logo](/files/a.png)](https://example.com/)"} />);
    expect(count(linked, "<a ")).toBe(1);
    expect(linked).toContain('href="https://example.com/"');
  });

  it("leaves ordinary links as links, and does not play a link whose address the URL filter dropped", () => {
    const html = render(<MarkdownView text={"[docs](https://example.com/guide) and [clip](javascript:alert(1)//.mp4)"} />);
    expect(html).not.toContain("<video");
    expect(html).toContain('<a href="https://example.com/guide" target="_blank" rel="noopener noreferrer">docs</a>');
    expect(html).not.toContain("javascript:");
  });

  it("renders the same in the phone chat's markdown", () => {
    const html = render(<H5Markdown text={"![1](/files/a.png)\n\n[▶ 2](/files/v.webm)"} />);
    expect(html).toMatch(/<video[^>]* src="\/files\/v.webm"[^>]* controls=""[^>]* playsinline=""[^>]* preload="metadata"/);
    expect(html).toContain('class="chat-md__picture"');
  });
});

describe("the console's reply bubble", () => {
  it("shows the job's progress in words while it runs, not a tool step nor the typing dots", () => {
    const html = bubble(reply({ generation: job("generating", 40, "video") }));
    expect(html).toContain('data-testid="generation-progress"');
    expect(html).toContain('data-kind="video"');
    expect(html).toContain(">Generating 40%<");
    expect(html).toContain('aria-valuenow="40"');
    expect(html).not.toContain('data-testid="tool-step"');
    expect(html).not.toContain('data-testid="typing"');
  });

  it("names each state in words, with a moving bar until a percentage is known", () => {
    expect(bubble(reply({ generation: job("queued", 0) }))).toMatch(/>Queued<[\s\S]*chat-gen__fill is-busy/);
    expect(bubble(reply({ generation: job("generating", 0) }))).toContain(">Generating…<");
    expect(bubble(reply({ generation: job("background", 50) }))).toContain(">Continuing in the background<");
    expect(bubble(reply({ generation: job("done", 100) }))).toContain(">Finishing…<");
  });

  it("shows the pictures and videos once the reply is done, and no progress", () => {
    const html = bubble(reply({ status: "done", content: "[▶ 1](/files/v.mp4)", media: [{ kind: "video", url: "/files/v.mp4", posterUrl: "/files/v.jpg" }] }));
    expect(html).not.toContain("generation-progress");
    expect(html).toMatch(/<video[^>]* poster="\/files\/v.jpg"/);
  });

  it("says a job goes on when the reply is stopped before its result, and a failure shows the error alone", () => {
    const stopped = bubble(reply({ status: "stopped", generation: job("generating", 30) }));
    expect(stopped).toContain('data-testid="generation-goes-on"');
    expect(stopped).toContain("find the result in My generations");
    expect(stopped).not.toContain("generation-progress");
    const failed = bubble(
      reply({ status: "failed", notice: "The output failed review and cannot be viewed or downloaded", generation: job("failed_review", 100) }),
    );
    expect(failed).toContain("The output failed review and cannot be viewed or downloaded");
    expect(failed).not.toContain("generation-progress");
    expect(failed).not.toContain("generation-goes-on");
  });
});

describe("the H5 chat's message", () => {
  it("shows the job's progress in the bubble in the h5 words while it runs", () => {
    const html = h5(reply({ generation: job("queued", 0) }));
    expect(html).toContain('data-testid="generation-progress"');
    expect(html).toContain(">Queued<");
    expect(html).not.toContain("h5-typing");
    expect(h5(reply({ generation: job("generating", 75, "video") }))).toContain(">Generating 75%<");
  });

  it("shows the typing dots for a reply that is not a generation, and no progress once it ends", () => {
    expect(h5(reply({}))).toContain("h5-typing");
    const failed = h5(reply({ status: "failed", notice: "Generation failed", generation: job("failed", 10) }));
    expect(failed).not.toContain("generation-progress");
    expect(failed).toContain("Generation failed");
  });
});
