// ComfyUI's default text-to-image graph in its API format: nodes by id, each a class_type and its
// inputs, where an input wired to another node is [that node's id, its output slot]. The ids are
// those of ComfyUI's own default workflow, so the graph reads like the one its users know.
//
//   4 CheckpointLoaderSimple ─ MODEL(0) ─────────────────────────┐
//        ├ CLIP(1) → 6 CLIPTextEncode (positive) ─┐               │
//        ├ CLIP(1) → 7 CLIPTextEncode (negative) ─┤               │
//        │           5 EmptyLatentImage ──────────┴→ 3 KSampler ←─┘
//        └ VAE(2) ──────────────────────────→ 8 VAEDecode ← 3 → 9 SaveImage
export type TComfyNode = { class_type: string; inputs: Record<string, unknown>; _meta?: { title: string } };
export type TComfyGraph = Record<string, TComfyNode>;

export const SAVE_NODE_ID = "9";
/** The prefix of the files SaveImage writes in ComfyUI's output folder. */
export const FILENAME_PREFIX = "zelin";

export type TTextToImageParams = {
  checkpoint: string;
  positive: string;
  negative: string;
  width: number;
  height: number;
  batchSize: number;
  seed: number;
  steps: number;
  cfg: number;
  sampler: string;
};

export function buildTextToImageGraph(p: TTextToImageParams): TComfyGraph {
  return {
    "4": { class_type: "CheckpointLoaderSimple", inputs: { ckpt_name: p.checkpoint }, _meta: { title: "Load Checkpoint" } },
    "6": { class_type: "CLIPTextEncode", inputs: { text: p.positive, clip: ["4", 1] }, _meta: { title: "Positive prompt" } },
    "7": { class_type: "CLIPTextEncode", inputs: { text: p.negative, clip: ["4", 1] }, _meta: { title: "Negative prompt" } },
    "5": { class_type: "EmptyLatentImage", inputs: { width: p.width, height: p.height, batch_size: p.batchSize }, _meta: { title: "Empty Latent Image" } },
    "3": {
      class_type: "KSampler",
      inputs: {
        seed: p.seed,
        steps: p.steps,
        cfg: p.cfg,
        sampler_name: p.sampler,
        scheduler: "normal",
        denoise: 1,
        model: ["4", 0],
        positive: ["6", 0],
        negative: ["7", 0],
        latent_image: ["5", 0],
      },
      _meta: { title: "KSampler" },
    },
    "8": { class_type: "VAEDecode", inputs: { samples: ["3", 0], vae: ["4", 2] }, _meta: { title: "VAE Decode" } },
    [SAVE_NODE_ID]: { class_type: "SaveImage", inputs: { filename_prefix: FILENAME_PREFIX, images: ["8", 0] }, _meta: { title: "Save Image" } },
  };
}
