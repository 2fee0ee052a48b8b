// The editor's calls: a video (digitalVideos.*), the figures and voices to choose from, library items
// for the background, and a digital-human app's scene (apps.get / apps.update).
import { callTrpc, trpc } from "../../lib/trpc";
import type { TAppInput } from "../../../server/apps/apps.schema";
import type { TUpdateVideoInput } from "../../../server/digital/videos.schema";

export type { TDigitalVideo, TVideoProgress, TVideoQuote } from "../../../server/digital/videos.schema";
export type { TFigureView } from "../../../server/digital/figures.schema";
export type { TDigitalVoiceList } from "../../../server/digital/voices.schema";

export const editorApi = {
  listFigures: () => callTrpc(() => trpc.digitalFigures.list.query()),
  listVoices: () => callTrpc(() => trpc.digitalVoices.list.query()),
  getMediaItem: (id: string) => callTrpc(() => trpc.media.get.query({ id })),
  createVideo: (name: string) => callTrpc(() => trpc.digitalVideos.create.mutate({ name })),
  getVideo: (id: string) => callTrpc(() => trpc.digitalVideos.get.query({ id })),
  updateVideo: (input: TUpdateVideoInput) => callTrpc(() => trpc.digitalVideos.update.mutate(input)),
  quoteVideo: (id: string) => callTrpc(() => trpc.digitalVideos.quote.query({ id })),
  renderVideo: (id: string) => callTrpc(() => trpc.digitalVideos.render.mutate({ id })),
  videoProgress: async (id: string) => (await callTrpc(() => trpc.digitalVideos.progress.query({ ids: [id] }))).items[0] ?? null,
  getApp: (id: string) => callTrpc(() => trpc.apps.get.query({ id })),
  updateApp: (id: string, app: TAppInput) => callTrpc(() => trpc.apps.update.mutate({ id, app })),
};
