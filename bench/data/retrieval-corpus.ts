// The retrieval benchmark's corpus: the hand-written labelled targets (FAQ items and
// manual passages, retrieval-targets-*.ts) hidden among filler generated from templates over the
// same domains' vocabulary, so common words ("退款", "account", "policy") match thousands of
// passages as they would in a real account, while each filler passage is about a named product,
// branch or plan the labelled questions never mention. Deterministic: a seeded generator.
import { TARGETS_EN } from "./retrieval-targets-en";
import { TARGETS_ZH, type TTargetRow } from "./retrieval-targets-zh";

export type TCorpusPassage = {
  /** Stable key: "t:<domain>:<lang>:<n>" for targets, "f:<n>" for filler. */
  key: string;
  kind: "qa" | "doc";
  lang: "zh" | "en";
  /** The question (Q&A) or the document name. */
  title: string;
  content: string;
};

export type TLabelledQuestion = { text: string; lang: "zh" | "en"; targetKey: string; targetKind: "qa" | "doc" };

export function listTargets(): { passages: TCorpusPassage[]; questions: TLabelledQuestion[] } {
  const passages: TCorpusPassage[] = [];
  const questions: TLabelledQuestion[] = [];
  const add = (lang: "zh" | "en", byDomain: Record<string, TTargetRow[]>) => {
    for (const [domain, rows] of Object.entries(byDomain)) {
      rows.forEach(([kind, title, content, ask], n) => {
        const key = `t:${domain}:${lang}:${n}`;
        passages.push({ key, kind, lang, title, content });
        questions.push({ text: ask, lang, targetKey: key, targetKind: kind });
      });
    }
  };
  add("zh", TARGETS_ZH);
  add("en", TARGETS_EN);
  return { passages, questions };
}

/** A small seeded generator (mulberry32): the same corpus on every run. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type TVocab = { entities: string[]; topics: string[] };

// Per domain: the named things filler talks about, and the topic words it shares with the targets.
const ZH: Record<string, TVocab> = {
  ecommerce: {
    entities: ["星河蓝牙耳机", "云朵羽绒服", "山野登山鞋", "青禾有机大米", "极光扫码枪", "暖冬电暖器", "小满儿童餐椅", "木言实木书桌"],
    topics: ["退货", "退款", "换货", "运费", "发票", "优惠券", "积分", "订单", "收货地址", "价保", "售后", "包邮", "破损", "尺码"],
  },
  saas: {
    entities: ["协同文档", "项目看板", "审批中心", "数据报表", "客户管理模块", "工单系统", "知识库", "日程助手"],
    topics: ["成员", "密码", "权限", "套餐", "数据导出", "接口", "通知", "工作流", "席位", "账号", "两步验证", "空间", "集成"],
  },
  education: {
    entities: ["高等数学", "商务英语", "Python 入门", "会计实务", "雅思口语", "素描基础", "考研政治", "钢琴启蒙"],
    topics: ["课程", "退费", "回放", "转班", "证书", "作业", "考试", "学分", "奖学金", "宿舍", "课时", "成绩单"],
  },
  travel: {
    entities: ["三亚湾度假酒店", "丽江古城客栈", "东航 MU5137", "国航 CA1831", "京沪高铁 G7", "云南六日游", "北海道自由行", "桂林漓江游船"],
    topics: ["退票", "改签", "行李", "取消", "签证", "护照", "儿童票", "延误", "押金", "团费", "入住", "托运"],
  },
  banking: {
    entities: ["金卡信用卡", "白金信用卡", "薪享储蓄卡", "安居房贷", "乐享消费贷", "三年期定期存款", "外币账户", "手机银行"],
    topics: ["挂失", "转账", "限额", "还款", "利息", "征信", "提前还款", "境外消费", "冻结", "年费", "额度", "购汇"],
  },
  hr: {
    entities: ["上海总部", "深圳研发中心", "北京分公司", "成都客服中心", "销售部", "财务部", "市场部", "产品部"],
    topics: ["年假", "病假", "加班费", "转正", "离职", "公积金", "婚假", "报销", "考勤", "体检", "绩效", "工资"],
  },
  telecom: {
    entities: ["畅享 59 元套餐", "5G 畅享 199 元套餐", "千兆宽带", "校园卡", "家庭融合套餐", "物联网卡", "亲情副卡", "国际漫游包"],
    topics: ["流量", "携号转网", "宽带", "漫游", "话费", "套餐变更", "停机保号", "实名", "骚扰电话", "副卡", "光猫", "余额"],
  },
  healthcare: {
    entities: ["心内科", "儿科", "口腔科", "眼科", "皮肤科", "妇产科", "骨科", "体检中心"],
    topics: ["挂号", "体检", "医保", "报告", "复诊", "住院", "疫苗", "探视", "建档", "诊查费", "预约", "处方"],
  },
  logistics: {
    entities: ["同城急送", "标准快递", "特惠件", "冷链专送", "国际小包", "大件物流", "驿站代收", "智能快递柜"],
    topics: ["快递", "包裹", "赔偿", "寄件", "签收", "运费", "改址", "取件", "保价", "禁寄", "时效", "报关"],
  },
  insurance: {
    entities: ["安心车险", "守护重疾险", "百万医疗险", "畅游意外险", "家安财产险", "少儿教育金", "养老年金险", "境外旅行险"],
    topics: ["理赔", "等待期", "退保", "保单", "保费", "免赔额", "犹豫期", "投保", "既往症", "受益人", "续保", "报案"],
  },
  smarthome: {
    entities: ["小燕智能音箱", "扫地机器人 S7", "指纹门锁 M2", "智能摄像头 C3", "空气净化器 P5", "智能插座", "温控器 T1", "智能窗帘电机"],
    topics: ["配网", "禁区", "电量", "分享", "录像", "定时", "保修", "滤芯", "网关", "语音控制", "固件升级", "离线"],
  },
};

const EN: Record<string, TVocab> = {
  ecommerce: {
    entities: [
      "Aurora headphones",
      "Summit hiking boots",
      "Maple desk lamp",
      "Breeze air fryer",
      "Nimbus backpack",
      "Harbor coffee maker",
      "Pebble smartwatch",
      "Cedar bookshelf",
    ],
    topics: ["return", "refund", "exchange", "shipping", "invoice", "coupon", "points", "order", "delivery", "warranty", "gift card", "size", "damage"],
  },
  saas: {
    entities: ["Docs workspace", "Kanban boards", "Approvals hub", "Analytics dashboard", "CRM module", "Ticketing desk", "Wiki", "Calendar assistant"],
    topics: ["members", "password", "permissions", "plan", "export", "API", "notifications", "automation", "seats", "account", "SSO", "integration", "trial"],
  },
  education: {
    entities: [
      "Calculus I",
      "Business English",
      "Intro to Python",
      "Financial Accounting",
      "IELTS Speaking",
      "Drawing Basics",
      "Organic Chemistry",
      "Music Theory",
    ],
    topics: ["course", "refund", "lesson", "certificate", "assignment", "exam", "credits", "scholarship", "enrollment", "section", "tuition", "grade"],
  },
  travel: {
    entities: [
      "Bayview Resort",
      "Old Town Inn",
      "flight BA117",
      "flight UA857",
      "the Coastal Express train",
      "Alps ski package",
      "Kyoto walking tour",
      "Harbor cruise",
    ],
    topics: ["ticket", "change", "baggage", "cancellation", "visa", "passport", "child fare", "delay", "deposit", "check-in", "booking", "seat"],
  },
  banking: {
    entities: [
      "Gold credit card",
      "Platinum card",
      "Everyday checking",
      "Home mortgage",
      "Personal loan",
      "12-month CD",
      "Foreign currency account",
      "mobile app",
    ],
    topics: [
      "lost card",
      "transfer",
      "limit",
      "payment",
      "interest",
      "credit score",
      "early repayment",
      "fees",
      "frozen account",
      "wire",
      "overdraft",
      "deposit",
    ],
  },
  hr: {
    entities: ["the London office", "the Austin campus", "the Berlin team", "the support center", "Sales", "Finance", "Marketing", "Engineering"],
    topics: ["vacation", "sick leave", "overtime", "probation", "resignation", "pension", "payroll", "expenses", "attendance", "benefits", "review", "salary"],
  },
  telecom: {
    entities: [
      "the Basic 20 GB plan",
      "the Unlimited Plus plan",
      "Fiber 1 Gig",
      "the student SIM",
      "the Family bundle",
      "the IoT SIM",
      "a secondary line",
      "the Travel Pass",
    ],
    topics: ["data", "porting", "broadband", "roaming", "bill", "plan change", "voicemail", "hotspot", "spam calls", "router", "contract", "balance"],
  },
  healthcare: {
    entities: ["Cardiology", "Pediatrics", "Dental care", "Eye clinic", "Dermatology", "Maternity", "Orthopedics", "the Wellness center"],
    topics: [
      "appointment",
      "test results",
      "insurance",
      "prescription",
      "referral",
      "admission",
      "vaccine",
      "visiting",
      "billing",
      "check-up",
      "fasting",
      "copay",
    ],
  },
  logistics: {
    entities: [
      "Same-day courier",
      "Ground service",
      "Economy parcel",
      "Cold-chain express",
      "International small packet",
      "Freight pallet",
      "Parcel locker",
      "Pickup point",
    ],
    topics: ["package", "parcel", "claim", "pickup", "delivery", "rates", "redirect", "tracking", "insurance", "prohibited items", "customs", "label"],
  },
  insurance: {
    entities: ["Auto Shield", "Critical Care plan", "Health Plus", "Travel Guard", "Home Secure", "Term Life 20", "Renters Basic", "Pet Care"],
    topics: [
      "claim",
      "waiting period",
      "cancellation",
      "policy",
      "premium",
      "deductible",
      "coverage",
      "beneficiary",
      "renewal",
      "exclusion",
      "driver",
      "cooling-off",
    ],
  },
  smarthome: {
    entities: ["the Echo speaker", "robot vacuum R7", "smart lock L2", "camera C3", "air purifier P5", "smart plug", "thermostat T1", "curtain motor"],
    topics: ["Wi-Fi", "no-go zone", "battery", "sharing", "recording", "schedule", "warranty", "filter", "hub", "voice control", "firmware", "offline"],
  },
};

const ZH_ASK = ["怎么办理", "有什么要求", "如何查询", "多久生效", "需要什么材料", "在哪里设置", "怎么收费", "有哪些限制", "可以取消吗", "出现问题怎么办"];
const ZH_SENT = [
  "{e}的{t}需在{n}个工作日内处理完毕",
  "超过{n}天提交的{t}申请将不予受理",
  "如需办理{t}，请在 App 的“{e}”页面提交申请",
  "{e}的{t}服务费为每次{n}元",
  "会员在{e}办理{t}可享受优先处理",
  "{t}结果会通过短信和站内信通知您",
  "{e}暂不支持线上{t}，请前往线下网点办理",
  "每个账号每月最多办理{n}次{t}",
  "{t}期间{e}的其他功能不受影响",
  "如对{t}结果有异议，可在{n}天内申请复核",
  "{e}的{t}规则自{n}月起调整，以页面公告为准",
  "办理{t}时请携带本人有效证件",
];
const EN_ASK = [
  "How do I request a {t} for {e}?",
  "What are the {t} rules for {e}?",
  "How long does a {t} take with {e}?",
  "Is there a fee for {t} on {e}?",
  "Where do I manage {t} for {e}?",
  "What documents do I need for {t} with {e}?",
  "Can I cancel a {t} for {e}?",
  "Why is my {t} on {e} not working?",
];
const EN_SENT = [
  "{t} requests for {e} are processed within {n} business days",
  "requests for {t} submitted after {n} days cannot be accepted",
  "to arrange {t}, open the {e} page in the app and submit the form",
  "a {t} on {e} costs {n} dollars each time",
  "members get priority handling of {t} on {e}",
  "you will be notified about your {t} by email and text message",
  "{e} does not support {t} online yet, please visit a branch",
  "each account can make up to {n} {t} requests per month",
  "other features of {e} keep working while the {t} is in progress",
  "if you disagree with the {t} decision you can ask for a review within {n} days",
  "the {t} rules of {e} change from month {n}, see the notice on the page",
  "bring a valid photo ID when you come in for {t}",
];
const ZH_DOC = ["服务说明.pdf", "使用手册.docx", "常见问题.pdf", "管理规定.docx", "操作指南.pdf"];
const EN_DOC = [" Service Terms.pdf", " User Guide.docx", " FAQ.pdf", " Policy.docx", " Handbook.pdf"];

/** Filler passage number `i` of a set kind, deterministic given the generator state. */
export function makeFiller(random: () => number, i: number, kind: "qa" | "doc"): TCorpusPassage {
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const lang = random() < 0.5 ? "zh" : "en";
  const domain = pick(Object.keys(ZH));
  const vocab = (lang === "zh" ? ZH : EN)[domain];
  // A numbered variant of an entity ("星河蓝牙耳机 37 号款", "Aurora headphones model 37"): the
  // filler names things the labelled questions never ask about.
  const variant = 1 + Math.floor(random() * 400);
  const e = lang === "zh" ? `${pick(vocab.entities)} ${variant} 号款` : `${pick(vocab.entities)} model ${variant}`;
  const fill = (tpl: string) =>
    tpl
      .replace(/\{e\}/g, e)
      .replace(/\{t\}/g, pick(vocab.topics))
      .replace(/\{n\}/g, () => String(2 + Math.floor(random() * 28)));
  const sentences = (count: number) => {
    const list = lang === "zh" ? ZH_SENT : EN_SENT;
    const out = Array.from({ length: count }, () => fill(pick(list)));
    return lang === "zh" ? out.join("，") + "。" : out.map((s) => s[0].toUpperCase() + s.slice(1)).join(". ") + ".";
  };
  if (kind === "qa") {
    const title = lang === "zh" ? `${e}的${pick(vocab.topics)}${pick(ZH_ASK)}？` : fill(pick(EN_ASK));
    return { key: `f:${i}`, kind, lang, title, content: sentences(2 + Math.floor(random() * 2)) };
  }
  const title = lang === "zh" ? `${e}${pick(ZH_DOC)}` : `${e}${pick(EN_DOC)}`;
  return { key: `f:${i}`, kind, lang, title, content: sentences(4 + Math.floor(random() * 4)) };
}
