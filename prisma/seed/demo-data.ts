// The market's starting categories, named in the four languages.
export const DEMO_CATEGORIES = [
  { slug: "office", sortOrder: 10, names: { zh_hans: "办公效率", zh_hant: "辦公效率", en: "Productivity", pt: "Produtividade" } },
  { slug: "education", sortOrder: 20, names: { zh_hans: "教育学习", zh_hant: "教育學習", en: "Education", pt: "Educação" } },
  { slug: "marketing", sortOrder: 30, names: { zh_hans: "营销文案", zh_hant: "營銷文案", en: "Marketing", pt: "Marketing" } },
  { slug: "customer_service", sortOrder: 40, names: { zh_hans: "智能客服", zh_hant: "智能客服", en: "Customer service", pt: "Atendimento" } },
  { slug: "image", sortOrder: 50, names: { zh_hans: "图像创作", zh_hant: "圖像創作", en: "Images", pt: "Imagens" } },
  { slug: "video", sortOrder: 60, names: { zh_hans: "视频生成", zh_hant: "視頻生成", en: "Video", pt: "Vídeo" } },
  { slug: "lifestyle", sortOrder: 70, names: { zh_hans: "生活助手", zh_hant: "生活助手", en: "Lifestyle", pt: "Estilo de vida" } },
];

/** The demo account of a fresh install (README): password login, or SMS login with the dev provider. */
export const DEMO_ACCOUNT = {
  account: "zelin_demo",
  password: "Zelin@2026",
  phone: "13800138000",
  nickname: "Zelin Demo",
  edition: "professional" as const,
};
