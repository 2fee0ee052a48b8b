// What the demo market of a fresh install holds: two demo developers and their agents and H5 apps
// in several categories, demo buyers whose purchases make the earnings list, and the carousel.
// Every text is written in the four languages; the seed stores what each record can hold (an app's
// Chinese and English fields; one language where a record has one field, picked by the install's
// language). Demo accounts say "demo" in their names, so nothing here passes for real activity.
import type { TLanguage } from "../../app/i18n/config";
import type { TBannerMotif, TEmblem } from "./demo-art";

export type TText = Record<TLanguage, string>;
type TRgb = readonly [number, number, number];
/** Micro-Z of a price in yuan (1 Z coin = 1 yuan), exact to the micro. */
const yuan = (amount: number) => Math.round(amount * 1_000_000);

export type TDemoAccount = { account: string; nickname: TText };

export const DEMO_DEVELOPERS = {
  moyan: {
    account: "demo_moyan_studio",
    nickname: { zh_hans: "墨言工作室（演示）", zh_hant: "墨言工作室（演示）", en: "Moyan Studio (demo)", pt: "Estúdio Moyan (demo)" },
  },
  zhixing: {
    account: "demo_zhixing_lab",
    nickname: { zh_hans: "知行实验室（演示）", zh_hant: "知行實驗室（演示）", en: "Zhixing Lab (demo)", pt: "Laboratório Zhixing (demo)" },
  },
} satisfies Record<string, TDemoAccount>;

/** Accounts whose purchases, likes and collects make the lists: demo buyers, named so. */
export const DEMO_BUYERS: TDemoAccount[] = [
  { account: "demo_buyer_a", nickname: { zh_hans: "演示买家 A", zh_hant: "演示買家 A", en: "Demo buyer A", pt: "Comprador demo A" } },
  { account: "demo_buyer_b", nickname: { zh_hans: "演示买家 B", zh_hant: "演示買家 B", en: "Demo buyer B", pt: "Comprador demo B" } },
  { account: "demo_buyer_c", nickname: { zh_hans: "演示买家 C", zh_hant: "演示買家 C", en: "Demo buyer C", pt: "Comprador demo C" } },
];

export type TDemoPlan = { kind: "days" | "count"; quantity: number; price_micro: number; daily_limit: number | null };

export type TDemoItem = {
  key: string;
  developer: keyof typeof DEMO_DEVELOPERS;
  category: string;
  emblem: TEmblem;
  colors: readonly [TRgb, TRgb];
  agent: { name: TText; introduction: TText; welcome: TText; outOfScope: TText; qa: Array<[string, string]> };
  app: { name: TText; introduction: TText; tags: string[]; questions: TText[]; plans: TDemoPlan[]; trialDays: number; freePerDay: number; shareRatio: number };
  /** Which demo buyers buy which of its plans (by index), and who likes and collects it. */
  buys: Array<[buyer: number, plan: number]>;
  likes: number[];
  collects: number[];
};

export const DEMO_ITEMS: TDemoItem[] = [
  {
    key: "weekly_report",
    developer: "moyan",
    category: "office",
    emblem: "report",
    colors: [
      [96, 165, 250],
      [37, 99, 235],
    ],
    agent: {
      name: { zh_hans: "周报小秘书", zh_hant: "周報小秘書", en: "Weekly Report", pt: "Relatórios" },
      introduction: {
        zh_hans: "把一周的零散工作整理成结构清晰的周报：完成事项、数据结果、问题风险、下周计划。",
        zh_hant: "把一週的零散工作整理成結構清晰的周報：完成事項、數據結果、問題風險、下週計劃。",
        en: "Turns a week of scattered work into a clear report: done, results, risks and next week's plan.",
        pt: "Transforma uma semana de trabalho disperso num relatório claro: feito, resultados, riscos e plano da próxima semana.",
      },
      welcome: {
        zh_hans: "你好，我是周报小秘书。可以问我：周报怎么写？",
        zh_hant: "你好，我是周報小秘書。可以問我：周報怎麼寫？",
        en: "Hi, I'm your weekly report helper. Ask me: How do I write a weekly report?",
        pt: "Olá! Pergunte-me: como escrever um relatório semanal?",
      },
      outOfScope: {
        zh_hans: "这个问题超出了我的范围。我擅长周报的结构、措辞和数据呈现。",
        zh_hant: "這個問題超出了我的範圍。我擅長周報的結構、措辭和數據呈現。",
        en: "That is outside what I know. I help with a weekly report's structure, wording and numbers.",
        pt: "Isso está fora do que sei. Ajudo com a estrutura, as palavras e os números de um relatório semanal.",
      },
      qa: [
        [
          "周报怎么写？",
          "按四段来写：1. 本周完成（3-5 条，动词开头）；2. 数据与结果（用数字说话）；3. 问题与风险（写清影响和需要的支持）；4. 下周计划（可衡量、有截止时间）。",
        ],
        ["周报写多长合适？", "一屏能读完最好：每段 3-5 条，每条一行。细节放链接或附件里。"],
        ["没什么成果的一周怎么写周报？", "写推进而不是结果：完成了哪些准备、排除了哪些方案、学到了什么，再写清下周要交付什么。"],
        ["周报里的数据怎么呈现？", "写“指标 + 变化 + 原因”，例如：注册转化率 12%（+2%），因为新版落地页上线。"],
        [
          "How do I write a weekly report?",
          "Use four parts: 1. Done this week (3-5 bullets starting with a verb); 2. Numbers and results; 3. Problems and risks, with the help you need; 4. Next week's plan, measurable and dated.",
        ],
        ["How long should a weekly report be?", "One screen: 3-5 bullets per part, one line each. Put details behind links."],
      ],
    },
    app: {
      name: { zh_hans: "周报小秘书", zh_hant: "周報小秘書", en: "Weekly Report Helper", pt: "Assistente de Relatório Semanal" },
      introduction: {
        zh_hans: "告诉它这周做了什么，它帮你整理成领导爱看的周报结构。演示应用，使用离线检索。",
        zh_hant: "告訴它這週做了什麼，它幫你整理成主管愛看的周報結構。演示應用，使用離線檢索。",
        en: "Tell it what you did this week and get a report your manager will read. A demo app on offline retrieval.",
        pt: "Conte o que fez esta semana e receba um relatório que o seu gestor vai ler. App de demonstração com recuperação offline.",
      },
      tags: ["周报", "办公", "写作"],
      questions: [
        { zh_hans: "周报怎么写？", zh_hant: "周報怎麼寫？", en: "How do I write a weekly report?", pt: "How do I write a weekly report?" },
        {
          zh_hans: "周报里的数据怎么呈现？",
          zh_hant: "周報里的數據怎麼呈現？",
          en: "How long should a weekly report be?",
          pt: "How long should a weekly report be?",
        },
      ],
      plans: [
        { kind: "count", quantity: 30, price_micro: yuan(9.9), daily_limit: 10 },
        { kind: "days", quantity: 30, price_micro: yuan(19.9), daily_limit: null },
      ],
      trialDays: 0,
      freePerDay: 3,
      shareRatio: 30,
    },
    buys: [
      [0, 1],
      [2, 0],
    ],
    likes: [0, 1, 2],
    collects: [0, 2],
  },
  {
    key: "speaking_coach",
    developer: "zhixing",
    category: "education",
    emblem: "chat",
    colors: [
      [52, 211, 153],
      [5, 150, 105],
    ],
    agent: {
      name: { zh_hans: "口语陪练", zh_hant: "口語陪練", en: "Speaking Coach", pt: "Treino de Fala" },
      introduction: {
        zh_hans: "英语口语练习伙伴：常用表达、面试问答、发音要点，随时开口练。",
        zh_hant: "英語口語練習夥伴：常用表達、面試問答、發音要點，隨時開口練。",
        en: "An English speaking partner: everyday phrases, interview answers and pronunciation tips.",
        pt: "Um parceiro de conversação em inglês: frases do dia a dia, respostas de entrevista e pronúncia.",
      },
      welcome: {
        zh_hans: "Hi! 我是你的口语陪练。试试问我：怎么做英文自我介绍？",
        zh_hant: "Hi! 我是你的口語陪練。試試問我：怎麼做英文自我介紹？",
        en: "Hi! I'm your speaking coach. Try: How do I introduce myself in English?",
        pt: "Olá! Experimente: How do I introduce myself in English?",
      },
      outOfScope: {
        zh_hans: "这个我还没学会。可以问我自我介绍、面试、点餐问路等口语场景。",
        zh_hant: "這個我還沒學會。可以問我自我介紹、面試、點餐問路等口語場景。",
        en: "I haven't learned that yet. Ask me about introductions, interviews, ordering food or asking the way.",
        pt: "Ainda não aprendi isso. Pergunte sobre apresentações, entrevistas, pedir comida ou direções.",
      },
      qa: [
        [
          "怎么做英文自我介绍？",
          "三句话就够：Hi, I'm Lin, a product designer from Shanghai. I've been designing mobile apps for five years. Outside work, I love hiking and photography.",
        ],
        ["面试时怎么回答 Tell me about yourself？", "用“现在-过去-将来”：现在的角色和成绩，过去相关的经历，以及为什么想要这份工作。控制在一分钟以内。"],
        ["点餐时常用哪些英语？", "Could I see the menu, please? / I'd like the ... / Could I have it without ...? / Can we get the bill, please?"],
        ["怎么练好英语发音？", "先模仿：选一段一分钟的音频，逐句跟读并录音对比；重点练重音和连读，比单个音素更影响听感。"],
        [
          "How do I introduce myself in English?",
          "Three sentences are enough: who you are and what you do, one thing you're proud of, and one thing you enjoy outside work.",
        ],
        ["How do I ask for directions?", "Excuse me, could you tell me how to get to ...? / Is it far from here? / Thanks a lot!"],
      ],
    },
    app: {
      name: { zh_hans: "英语口语陪练", zh_hant: "英語口語陪練", en: "English Speaking Coach", pt: "Treinador de Inglês Falado" },
      introduction: {
        zh_hans: "自我介绍、面试、旅行点餐，常用口语场景一问就会。首次使用可免费试用 3 天。演示应用。",
        zh_hant: "自我介紹、面試、旅行點餐，常用口語場景一問就會。首次使用可免費試用 3 天。演示應用。",
        en: "Introductions, interviews, ordering food: everyday English on request. Free 3-day trial. A demo app.",
        pt: "Apresentações, entrevistas, pedir comida: inglês do dia a dia. Teste grátis de 3 dias. App de demonstração.",
      },
      tags: ["英语", "口语", "学习"],
      questions: [
        {
          zh_hans: "怎么做英文自我介绍？",
          zh_hant: "怎麼做英文自我介紹？",
          en: "How do I introduce myself in English?",
          pt: "How do I introduce myself in English?",
        },
        { zh_hans: "点餐时常用哪些英语？", zh_hant: "點餐時常用哪些英語？", en: "How do I ask for directions?", pt: "How do I ask for directions?" },
      ],
      plans: [
        { kind: "days", quantity: 30, price_micro: yuan(29.9), daily_limit: null },
        { kind: "days", quantity: 365, price_micro: yuan(199), daily_limit: null },
      ],
      trialDays: 3,
      freePerDay: 0,
      shareRatio: 40,
    },
    buys: [[0, 0]],
    likes: [0, 1],
    collects: [1],
  },
  {
    key: "post_writer",
    developer: "moyan",
    category: "marketing",
    emblem: "pen",
    colors: [
      [244, 114, 182],
      [219, 39, 119],
    ],
    agent: {
      name: { zh_hans: "种草文案", zh_hant: "種草文案", en: "Post Writer", pt: "Textos Sociais" },
      introduction: {
        zh_hans: "写社交平台种草笔记：标题公式、开头钩子、卖点结构和结尾引导。",
        zh_hant: "寫社交平台種草筆記：標題公式、開頭鉤子、賣點結構和結尾引導。",
        en: "Writes social posts that sell: headline formulas, hooks, selling points and calls to action.",
        pt: "Escreve posts que vendem: fórmulas de título, ganchos, argumentos e chamadas à ação.",
      },
      welcome: {
        zh_hans: "来写一篇爆款笔记吧！问我：标题怎么写更吸引人？",
        zh_hant: "來寫一篇爆款筆記吧！問我：標題怎麼寫更吸引人？",
        en: "Let's write a post people save! Ask me: How do I write a catchy title?",
        pt: "Vamos escrever um post! Pergunte: How do I write a catchy title?",
      },
      outOfScope: {
        zh_hans: "这个不在我的文案手册里。可以问我标题、开头、卖点和结尾怎么写。",
        zh_hant: "這個不在我的文案手冊裡。可以問我標題、開頭、賣點和結尾怎麼寫。",
        en: "That's not in my copywriting playbook. Ask me about titles, openings, selling points or endings.",
        pt: "Isso não está no meu manual. Pergunte sobre títulos, aberturas, argumentos ou finais.",
      },
      qa: [
        [
          "标题怎么写更吸引人？",
          "常用三个公式：数字+结果（“3 步搞定早餐”）、人群+痛点（“租房党必看”）、反差（“没想到 30 块也能这么好看”）。标题控制在 20 字内。",
        ],
        ["笔记开头怎么写？", "前两行决定是否被点开：直接说场景和结果，例如“通勤 40 分钟，我靠这个包装下了一整天的东西”。"],
        ["卖点怎么写不像广告？", "用亲身体验代替形容词：写用了多久、在什么场景、解决了什么问题，再给一个小缺点，更可信。"],
        ["结尾怎么引导互动？", "抛一个容易回答的问题，比如“你们通勤都背什么包？”，比“欢迎评论”更有效。"],
        [
          "How do I write a catchy title?",
          'Try numbers plus a result ("3 steps to a 5-minute breakfast"), an audience plus a pain point, or a surprise. Keep it short.',
        ],
      ],
    },
    app: {
      name: { zh_hans: "种草文案助手", zh_hant: "種草文案助手", en: "Social Post Writer", pt: "Redator de Posts Sociais" },
      introduction: {
        zh_hans: "标题、开头、卖点、结尾，一步步教你写出有人收藏的笔记。演示应用。",
        zh_hant: "標題、開頭、賣點、結尾，一步步教你寫出有人收藏的筆記。演示應用。",
        en: "Title, opening, selling points, ending: write posts people save, step by step. A demo app.",
        pt: "Título, abertura, argumentos, final: posts que as pessoas guardam, passo a passo. App de demonstração.",
      },
      tags: ["文案", "营销", "社交媒体"],
      questions: [
        { zh_hans: "标题怎么写更吸引人？", zh_hant: "標題怎麼寫更吸引人？", en: "How do I write a catchy title?", pt: "How do I write a catchy title?" },
        { zh_hans: "卖点怎么写不像广告？", zh_hant: "賣點怎麼寫不像廣告？", en: "How do I write a catchy title?", pt: "How do I write a catchy title?" },
      ],
      plans: [{ kind: "count", quantity: 50, price_micro: yuan(6.6), daily_limit: 20 }],
      trialDays: 0,
      freePerDay: 5,
      shareRatio: 30,
    },
    buys: [[1, 0]],
    likes: [1, 2],
    collects: [1, 2],
  },
  {
    key: "prompt_artist",
    developer: "zhixing",
    category: "image",
    emblem: "palette",
    colors: [
      [192, 132, 252],
      [124, 58, 237],
    ],
    agent: {
      name: { zh_hans: "绘画提示词", zh_hant: "繪畫提示詞", en: "Prompt Artist", pt: "Prompts de Arte" },
      introduction: {
        zh_hans: "帮你写 AI 绘画提示词：主体、风格、构图、光线、画质，一步步拼出好画面。",
        zh_hant: "幫你寫 AI 繪畫提示詞：主體、風格、構圖、光線、畫質，一步步拼出好畫面。",
        en: "Helps you write prompts for AI drawing: subject, style, composition, light and quality.",
        pt: "Ajuda a escrever prompts para desenho com IA: tema, estilo, composição, luz e qualidade.",
      },
      welcome: {
        zh_hans: "想画点什么？问我：AI 绘画提示词怎么写？",
        zh_hant: "想畫點什麼？問我：AI 繪畫提示詞怎麼寫？",
        en: "What shall we draw? Ask me: How do I write a prompt for AI drawing?",
        pt: "O que vamos desenhar? Pergunte: How do I write a prompt for AI drawing?",
      },
      outOfScope: {
        zh_hans: "这个我不太懂。可以问我提示词结构、风格词、构图词和负面提示词。",
        zh_hant: "這個我不太懂。可以問我提示詞結構、風格詞、構圖詞和負面提示詞。",
        en: "I'm not sure about that. Ask me about prompt structure, style words, composition or negative prompts.",
        pt: "Não sei bem. Pergunte sobre estrutura de prompt, estilos, composição ou prompts negativos.",
      },
      qa: [
        ["AI 绘画提示词怎么写？", "按“主体 + 细节 + 风格 + 构图 + 光线 + 画质”来写，例如：一只橘猫坐在窗台，午后阳光，水彩风格，特写，柔和逆光，高清细节。"],
        ["有哪些常用的风格词？", "水彩、油画、赛博朋克、吉卜力风、极简扁平、胶片摄影、3D 渲染、国风工笔。一次用一到两个，避免互相冲突。"],
        ["负面提示词写什么？", "写不想要的东西：模糊、多余的手指、畸形、文字水印、低分辨率。"],
        ["构图词有哪些？", "特写、半身、全身、俯视、仰视、广角、对称构图、三分法、留白。"],
        [
          "How do I write a prompt for AI drawing?",
          'Subject + details + style + composition + light + quality, e.g. "an orange cat on a windowsill, afternoon sun, watercolor, close-up, soft backlight, highly detailed".',
        ],
      ],
    },
    app: {
      name: { zh_hans: "AI 绘画提示词助手", zh_hant: "AI 繪畫提示詞助手", en: "AI Drawing Prompt Helper", pt: "Assistente de Prompts de Desenho" },
      introduction: {
        zh_hans: "不会写提示词？告诉它你想画什么，它教你拼出风格、构图、光线都到位的提示词。演示应用。",
        zh_hant: "不會寫提示詞？告訴它你想畫什麼，它教你拼出風格、構圖、光線都到位的提示詞。演示應用。",
        en: "Say what you want to draw and learn to build a prompt with the right style, framing and light. A demo app.",
        pt: "Diga o que quer desenhar e aprenda a montar um prompt com estilo, enquadramento e luz. App de demonstração.",
      },
      tags: ["绘画", "提示词", "设计"],
      questions: [
        {
          zh_hans: "AI 绘画提示词怎么写？",
          zh_hant: "AI 繪畫提示詞怎麼寫？",
          en: "How do I write a prompt for AI drawing?",
          pt: "How do I write a prompt for AI drawing?",
        },
        {
          zh_hans: "有哪些常用的风格词？",
          zh_hant: "有哪些常用的風格詞？",
          en: "How do I write a prompt for AI drawing?",
          pt: "How do I write a prompt for AI drawing?",
        },
      ],
      plans: [{ kind: "count", quantity: 100, price_micro: yuan(9.9), daily_limit: 30 }],
      trialDays: 0,
      freePerDay: 10,
      shareRatio: 20,
    },
    buys: [[1, 0]],
    likes: [0, 1, 2],
    collects: [0, 1, 2],
  },
  {
    key: "video_script",
    developer: "moyan",
    category: "video",
    emblem: "play",
    colors: [
      [251, 146, 60],
      [234, 88, 12],
    ],
    agent: {
      name: { zh_hans: "短视频脚本", zh_hant: "短視頻腳本", en: "Video Scripts", pt: "Roteiros" },
      introduction: {
        zh_hans: "写 30-60 秒短视频脚本：黄金 3 秒开头、分镜表、口播稿和结尾引导。",
        zh_hant: "寫 30-60 秒短視頻腳本：黃金 3 秒開頭、分鏡表、口播稿和結尾引導。",
        en: "Writes 30-60 second video scripts: a 3-second hook, shot list, voice-over and ending.",
        pt: "Escreve roteiros de 30-60 segundos: gancho de 3 segundos, planos, locução e final.",
      },
      welcome: {
        zh_hans: "来策划一条短视频吧。问我：短视频开头怎么抓人？",
        zh_hant: "來策劃一條短視頻吧。問我：短視頻開頭怎麼抓人？",
        en: "Let's plan a short video. Ask me: How do I hook viewers in the first seconds?",
        pt: "Vamos planear um vídeo. Pergunte: How do I hook viewers in the first seconds?",
      },
      outOfScope: {
        zh_hans: "这个问题我答不上。可以问我开头、分镜、口播稿和时长安排。",
        zh_hant: "這個問題我答不上。可以問我開頭、分鏡、口播稿和時長安排。",
        en: "I can't answer that one. Ask me about hooks, shot lists, voice-overs or timing.",
        pt: "Não sei responder. Pergunte sobre ganchos, planos, locução ou duração.",
      },
      qa: [
        ["短视频开头怎么抓人？", "黄金 3 秒：直接给结果（“这样收纳，衣柜多出一半空间”）、抛问题（“你是不是也……”）或制造反差，别从自我介绍开始。"],
        ["分镜表怎么写？", "每一行写：镜号、时长、画面、台词/字幕、音效。30 秒视频一般 6-10 个镜头。"],
        ["口播稿怎么写？", "一句一个意思，每句不超过 15 字；用“你”说话；每 5-8 秒给一个新信息，避免观众划走。"],
        [
          "How do I hook viewers in the first seconds?",
          "Open with the result, a question your viewer recognises, or a surprise. Never start with an introduction.",
        ],
      ],
    },
    app: {
      name: { zh_hans: "短视频脚本助手", zh_hant: "短視頻腳本助手", en: "Short Video Script Helper", pt: "Assistente de Roteiros de Vídeo" },
      introduction: {
        zh_hans: "开头钩子、分镜表、口播稿，帮你把一个想法变成能拍的脚本。可试用 1 天。演示应用。",
        zh_hant: "開頭鉤子、分鏡表、口播稿，幫你把一個想法變成能拍的腳本。可試用 1 天。演示應用。",
        en: "Hooks, shot lists and voice-overs: turn an idea into a script you can shoot. 1-day trial. A demo app.",
        pt: "Ganchos, planos e locução: transforme uma ideia num roteiro. Teste de 1 dia. App de demonstração.",
      },
      tags: ["短视频", "脚本", "创作"],
      questions: [
        {
          zh_hans: "短视频开头怎么抓人？",
          zh_hant: "短視頻開頭怎麼抓人？",
          en: "How do I hook viewers in the first seconds?",
          pt: "How do I hook viewers in the first seconds?",
        },
        {
          zh_hans: "分镜表怎么写？",
          zh_hant: "分鏡表怎麼寫？",
          en: "How do I hook viewers in the first seconds?",
          pt: "How do I hook viewers in the first seconds?",
        },
      ],
      plans: [
        { kind: "days", quantity: 7, price_micro: yuan(6.6), daily_limit: null },
        { kind: "days", quantity: 30, price_micro: yuan(19.9), daily_limit: null },
      ],
      trialDays: 1,
      freePerDay: 0,
      shareRatio: 30,
    },
    buys: [[1, 0]],
    likes: [2],
    collects: [0],
  },
  {
    key: "meal_planner",
    developer: "zhixing",
    category: "lifestyle",
    emblem: "leaf",
    colors: [
      [163, 230, 53],
      [22, 163, 74],
    ],
    agent: {
      name: { zh_hans: "轻食营养师", zh_hant: "輕食營養師", en: "Meal Planner", pt: "Refeições" },
      introduction: {
        zh_hans: "一日三餐怎么搭配更健康：控糖、增肌、减脂餐的简单原则和食谱思路。",
        zh_hant: "一日三餐怎麼搭配更健康：控糖、增肌、減脂餐的簡單原則和食譜思路。",
        en: "Healthier everyday meals: simple rules and recipe ideas for less sugar, more protein or losing fat.",
        pt: "Refeições mais saudáveis: regras simples e ideias para menos açúcar, mais proteína ou perder gordura.",
      },
      welcome: {
        zh_hans: "今天吃什么？问我：减脂期早餐吃什么？（仅供参考，不替代医生建议）",
        zh_hant: "今天吃什麼？問我：減脂期早餐吃什麼？（僅供參考，不替代醫生建議）",
        en: "What's for today? Ask me: What should I eat for breakfast when cutting fat? (General tips, not medical advice.)",
        pt: "O que vamos comer? Pergunte: What should I eat for breakfast when cutting fat? (Dicas gerais, não conselho médico.)",
      },
      outOfScope: {
        zh_hans: "这个问题建议咨询医生或注册营养师。我可以给日常饮食搭配的一般建议。",
        zh_hant: "這個問題建議諮詢醫生或註冊營養師。我可以給日常飲食搭配的一般建議。",
        en: "Please ask a doctor or a registered dietitian about that. I give general tips for everyday meals.",
        pt: "Consulte um médico ou nutricionista sobre isso. Dou dicas gerais para refeições do dia a dia.",
      },
      qa: [
        ["减脂期早餐吃什么？", "一份蛋白质（鸡蛋或无糖酸奶）+ 一份粗粮（燕麦、全麦面包）+ 一份果蔬。少喝含糖饮料。"],
        ["一顿饭怎么搭配比较均衡？", "用“餐盘法”：一半蔬菜，四分之一优质蛋白，四分之一主食（最好一半是粗粮）。"],
        ["增肌期每天需要多少蛋白质？", "常见的一般建议是每公斤体重 1.2-1.6 克，分到三餐和加餐里；有肾脏问题请先咨询医生。"],
        [
          "What should I eat for breakfast when cutting fat?",
          "Protein (eggs or plain yoghurt) + whole grains (oats, wholemeal bread) + fruit or vegetables, and skip sugary drinks.",
        ],
      ],
    },
    app: {
      name: { zh_hans: "轻食营养师", zh_hant: "輕食營養師", en: "Healthy Meal Planner", pt: "Planejador de Refeições Leves" },
      introduction: {
        zh_hans: "早餐吃什么、一餐怎么配、增肌减脂怎么吃，给你日常饮食的简单原则。仅供参考。演示应用。",
        zh_hant: "早餐吃什麼、一餐怎麼配、增肌減脂怎麼吃，給你日常飲食的簡單原則。僅供參考。演示應用。",
        en: "Breakfast ideas, balanced plates, eating for muscle or fat loss: simple everyday rules. General tips only. A demo app.",
        pt: "Ideias de pequeno-almoço, pratos equilibrados, comer para ganhar músculo ou perder gordura. Só dicas gerais. App de demonstração.",
      },
      tags: ["健康", "饮食", "生活"],
      questions: [
        {
          zh_hans: "减脂期早餐吃什么？",
          zh_hant: "減脂期早餐吃什麼？",
          en: "What should I eat for breakfast when cutting fat?",
          pt: "What should I eat for breakfast when cutting fat?",
        },
        {
          zh_hans: "一顿饭怎么搭配比较均衡？",
          zh_hant: "一頓飯怎麼搭配比較均衡？",
          en: "What should I eat for breakfast when cutting fat?",
          pt: "What should I eat for breakfast when cutting fat?",
        },
      ],
      plans: [{ kind: "days", quantity: 30, price_micro: yuan(9.9), daily_limit: null }],
      trialDays: 0,
      freePerDay: 10,
      shareRatio: 20,
    },
    buys: [[2, 0]],
    likes: [0, 2],
    collects: [2],
  },
];

export type TDemoSlide = { key: string; name: TText; link: string; motif: TBannerMotif; colors: readonly [TRgb, TRgb] };

export const DEMO_CAROUSEL: TDemoSlide[] = [
  {
    key: "start",
    name: {
      zh_hans: "10 分钟搭一个自己的智能体",
      zh_hant: "10 分鐘搭一個自己的智能體",
      en: "Build your own agent in 10 minutes",
      pt: "Crie o seu agente em 10 minutos",
    },
    link: "/registered",
    motif: "cards",
    colors: [
      [79, 70, 229],
      [14, 165, 233],
    ],
  },
  {
    key: "apps",
    name: {
      zh_hans: "应用中心：拿来就能用的 AI 应用",
      zh_hant: "應用中心：拿來就能用的 AI 應用",
      en: "App centre: AI apps ready to use",
      pt: "Centro de apps: apps de IA prontas a usar",
    },
    link: "/app_store",
    motif: "bubbles",
    colors: [
      [13, 148, 136],
      [59, 130, 246],
    ],
  },
  {
    key: "earn",
    name: { zh_hans: "分享赚分成，最高 70%", zh_hant: "分享賺分成，最高 70%", en: "Share apps and earn up to 70%", pt: "Partilhe apps e ganhe até 70%" },
    link: "/scheme",
    motif: "coins",
    colors: [
      [234, 88, 12],
      [219, 39, 119],
    ],
  },
];
