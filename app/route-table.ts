// Every page of the product, once. routes.ts registers each twice, at its path and under /mobi
// with the phone layout, from the same module. Areas add their pages here.
export type TLayout = "site" | "bare" | "auth" | "console" | "lean";

export type TRouteEntry = {
  /** Unique, stable id: also the route id of the desktop registration. */
  id: string;
  path: string;
  /** Module path relative to app/. */
  file: string;
  layout: TLayout;
  /** Pages that exist only under /mobi (the product's mobile-only pages); path is then given without the prefix. */
  mobiOnly?: boolean;
  /**
   * Pages whose /mobi path belongs to a mobile-only page of another purpose (the product lists the
   * console's /dialogue and the H5 /mobi/dialogue): registered at the path only, still responsive.
   */
  desktopOnly?: boolean;
};

export const ROUTE_TABLE: TRouteEntry[] = [
  // Public site.
  { id: "home", path: "/", file: "routes/site/home.tsx", layout: "site" },
  { id: "case", path: "/case", file: "routes/site/case.tsx", layout: "site" },
  { id: "scheme", path: "/scheme", file: "routes/site/scheme.tsx", layout: "site" },
  { id: "partner", path: "/partner", file: "routes/site/partner.tsx", layout: "site" },
  { id: "policy", path: "/policy", file: "routes/site/policy.tsx", layout: "site" },
  { id: "terms", path: "/terms", file: "routes/site/terms.tsx", layout: "site" },
  // Access refusals.
  { id: "no_perm", path: "/no_perm", file: "routes/shell/no-perm.tsx", layout: "bare" },
  { id: "no_page_perm", path: "/no_page_perm", file: "routes/shell/no-perm.tsx", layout: "bare" },
  // Accounts.
  { id: "login", path: "/login", file: "routes/auth/login.tsx", layout: "auth" },
  { id: "sso_login", path: "/sso_login", file: "routes/auth/sso-login.tsx", layout: "auth" },
  { id: "registered", path: "/registered", file: "routes/auth/registered.tsx", layout: "auth" },
  { id: "forgot_password", path: "/forgot_password", file: "routes/auth/forgot-password.tsx", layout: "auth" },
  // First-run setup: the first platform administrator, while none exists.
  { id: "setup", path: "/setup", file: "routes/auth/setup.tsx", layout: "auth" },
  { id: "dev_sms", path: "/dev/sms", file: "routes/dev/sms.tsx", layout: "bare" },
  // Console.
  // Where signing in and signing up land: the getting-started checklist, balance and quick links.
  { id: "workspace", path: "/workspace", file: "routes/console/workspace.tsx", layout: "console" },
  { id: "setting", path: "/setting", file: "routes/console/setting.tsx", layout: "console" },
  { id: "admin_certifications", path: "/admin/certifications", file: "routes/admin/certifications.tsx", layout: "console" },
  // Model registry and channels.
  { id: "model", path: "/model", file: "routes/console/model.tsx", layout: "console" },
  { id: "model_producer", path: "/modelProducer", file: "routes/console/model-producer.tsx", layout: "console" },
  // Agent builder.
  { id: "creator", path: "/creator", file: "routes/console/creator.tsx", layout: "console" },
  { id: "agent_detail", path: "/agentDetail", file: "routes/console/agent-detail.tsx", layout: "console" },
  { id: "agent_sort", path: "/agentSort", file: "routes/console/agent-sort.tsx", layout: "console" },
  { id: "update_log", path: "/updateLog", file: "routes/console/update-log.tsx", layout: "console" },
  { id: "upload", path: "/upload", file: "routes/console/upload.tsx", layout: "console" },
  { id: "admin_agent_review", path: "/admin/agent_review", file: "routes/admin/agent-review.tsx", layout: "console" },
  // Chat runtime UI: the debug chat is desktop-path only (/mobi/dialogue is the H5 chat).
  { id: "console_dialogue", path: "/dialogue", file: "routes/console/dialogue.tsx", layout: "console", desktopOnly: true },
  { id: "history_qa", path: "/history_qa", file: "routes/console/history-qa.tsx", layout: "console" },
  // Multimedia library: the grid, the upload form, the table, and the picker other pages open.
  { id: "multimedia", path: "/multimedia", file: "routes/console/multimedia.tsx", layout: "console" },
  { id: "created_datum_list", path: "/CreatedatumList", file: "routes/console/created-datum-list.tsx", layout: "console" },
  { id: "datum_list", path: "/datumList", file: "routes/console/datum-list.tsx", layout: "console" },
  { id: "warehouse", path: "/warehouse", file: "routes/console/warehouse.tsx", layout: "console" },
  // Media generation: the drawing screen, the video screen, and the gallery of every generation.
  { id: "drawing", path: "/drawing", file: "routes/generation/drawing.tsx", layout: "console" },
  { id: "video_generation", path: "/video_generation", file: "routes/generation/video-generation.tsx", layout: "console" },
  { id: "generations", path: "/generations", file: "routes/generation/generations.tsx", layout: "console" },
  // Figures of digital humans: my figures, filming one (with its check), keying it, its avatar training.
  { id: "digital", path: "/digital", file: "routes/digital/digital.tsx", layout: "console" },
  { id: "create_digital", path: "/Createdigital", file: "routes/digital/create-digital.tsx", layout: "console" },
  { id: "create_character", path: "/CreateCharacter", file: "routes/digital/create-character.tsx", layout: "console" },
  { id: "figure_train", path: "/figureTrain", file: "routes/digital/figure-train.tsx", layout: "console" },
  // Voices: my voices, the announcers and the voice package; recording a personal voice; a custom voice.
  { id: "speechtr", path: "/speechtr", file: "routes/digital/speechtr.tsx", layout: "console" },
  { id: "create_speechtr", path: "/Createspeechtr", file: "routes/digital/create-speechtr.tsx", layout: "console" },
  { id: "create_voice", path: "/Createvoice", file: "routes/digital/create-voice.tsx", layout: "console" },
  // Digital humans: the editor of a video, or of a digital-human app's scene (?video= or ?app=).
  { id: "create_app_digital", path: "/CreateAppDigital", file: "routes/digital/create-app-digital.tsx", layout: "console" },
  // Digital humans: the running instances of digital-human apps and their hourly billing, for administrators.
  { id: "admin_digital_instances", path: "/admin/digital_instances", file: "routes/admin/digital-instances.tsx", layout: "console" },
  // Training sets: the list of every type, a Q&A set, a smart text set.
  { id: "train", path: "/train", file: "routes/console/train.tsx", layout: "console" },
  { id: "create_normal_train", path: "/create_normal_train", file: "routes/console/create-normal-train.tsx", layout: "console" },
  { id: "create_train", path: "/create_train", file: "routes/console/create-train.tsx", layout: "console" },
  // Database training sets: the form, and the list with a query box.
  { id: "create_databases", path: "/Createdatabases", file: "routes/console/create-databases.tsx", layout: "console" },
  { id: "database", path: "/database", file: "routes/console/database.tsx", layout: "console" },
  // H5 apps: a share link's landing (phones go on to /mobi/dialogue).
  { id: "share", path: "/share", file: "routes/mobi/share.tsx", layout: "bare" },
  // Sharing and app data: an app's numbers, dialogues and exports; the share poster.
  { id: "application", path: "/application", file: "routes/console/application.tsx", layout: "console" },
  { id: "poster_editor", path: "/posterEditor", file: "routes/apps/poster-editor.tsx", layout: "console" },
  // Apps core: the app form (H5 and other types, API), my apps, the recycle bin, review.
  { id: "create_app", path: "/create_app", file: "routes/apps/create-app.tsx", layout: "console" },
  { id: "create_api", path: "/create_api", file: "routes/apps/create-api.tsx", layout: "console" },
  { id: "my_app", path: "/my_app", file: "routes/apps/my-app.tsx", layout: "console" },
  { id: "del_app", path: "/del_app", file: "routes/apps/del-app.tsx", layout: "console" },
  { id: "admin_app_review", path: "/admin/app_review", file: "routes/admin/app-review.tsx", layout: "console" },
  // Workshops: my workshops, a workshop's information, its roles-and-nodes editor; and the run page
  // (a developer's debug run, ?id=, or a workshop app's consumer, ?app=), lean for phones.
  { id: "workshop_list", path: "/workshopList", file: "routes/workshops/workshop-list.tsx", layout: "console" },
  { id: "create_work", path: "/createWork", file: "routes/workshops/create-work.tsx", layout: "console" },
  { id: "created_workshop", path: "/CreatedWorkshop", file: "routes/workshops/created-workshop.tsx", layout: "console" },
  { id: "workshop", path: "/workshop", file: "routes/workshops/workshop.tsx", layout: "lean" },
  // Bots: my bots, the create form (?new=1) and a bot's page (?bot_id=).
  { id: "create_bot", path: "/create_bot", file: "routes/bots/create-bot.tsx", layout: "console" },
  // Payments: every payment order; the sandbox's cashier page, where its payer pays or cancels.
  { id: "admin_payments", path: "/admin/payments", file: "routes/admin/payments.tsx", layout: "console" },
  { id: "cashier", path: "/cashier", file: "routes/money/cashier.tsx", layout: "bare" },
  // Selling: an administrator's purchase list with refunds.
  { id: "admin_purchases", path: "/admin/purchases", file: "routes/admin/purchases.tsx", layout: "console" },
  // Metering: the ledger reconciled, for platform administrators.
  { id: "admin_reconciliation", path: "/admin/reconciliation", file: "routes/admin/reconciliation.tsx", layout: "console" },
  // The market: app centre, agent market, its home, search, details, discussion, a
  // developer's page; the console's view of the agent market; categories and carousel for admins.
  { id: "market_index", path: "/index", file: "routes/market/market-home.tsx", layout: "site" },
  { id: "market_home", path: "/home", file: "routes/market/market-home.tsx", layout: "site" },
  { id: "app_store", path: "/app_store", file: "routes/market/app-store.tsx", layout: "site" },
  { id: "intelligent_stores", path: "/intelligent_stores", file: "routes/market/intelligent-stores.tsx", layout: "site" },
  { id: "search", path: "/search", file: "routes/market/search.tsx", layout: "site" },
  { id: "detail", path: "/detail", file: "routes/market/detail.tsx", layout: "site" },
  { id: "discussion", path: "/discussion", file: "routes/market/discussion.tsx", layout: "site" },
  { id: "customer", path: "/customer", file: "routes/market/customer.tsx", layout: "site" },
  { id: "intelligent_store", path: "/intelligent_store", file: "routes/market/intelligent-store.tsx", layout: "console" },
  { id: "admin_app_categories", path: "/admin/app_categories", file: "routes/market/admin-app-categories.tsx", layout: "console" },
  { id: "admin_carousel", path: "/admin/carousel", file: "routes/market/admin-carousel.tsx", layout: "console" },
  // Money: statements, withdrawals and their administration.
  { id: "income", path: "/income", file: "routes/money/income.tsx", layout: "console" },
  { id: "consumption", path: "/consumption", file: "routes/money/consumption.tsx", layout: "console" },
  { id: "withdrawal", path: "/withdrawal", file: "routes/money/withdrawal.tsx", layout: "console" },
  { id: "my_withdrawal", path: "/my_withdrawal", file: "routes/money/my-withdrawal.tsx", layout: "console" },
  { id: "admin_withdrawals", path: "/admin/withdrawals", file: "routes/admin/withdrawals.tsx", layout: "console" },
  // Content: the sensitive-word list, default words and the administrators' own.
  { id: "admin_sensitive_words", path: "/admin/sensitive_words", file: "routes/admin/sensitive-words.tsx", layout: "console" },
  // Distribution: share links, invitees and earnings; dividends; gift credit; the invitation page.
  { id: "distribution", path: "/distribution", file: "routes/distribution/distribution.tsx", layout: "console" },
  { id: "my_bonus", path: "/my_bonus", file: "routes/distribution/my-bonus.tsx", layout: "console" },
  { id: "my_redpacket", path: "/my_redpacket", file: "routes/distribution/my-redpacket.tsx", layout: "console" },
  { id: "invitation", path: "/invitation", file: "routes/distribution/invitation.tsx", layout: "console" },
  // Membership: the console's /upgrade; /mobi/upgrade is the phone page below.
  { id: "upgrade", path: "/upgrade", file: "routes/editions/upgrade.tsx", layout: "console", desktopOnly: true },
  // Mobile only.
  // The H5 app's chat stands alone on the phone screen and loads no antd (lean layout: its bundle has a size budget).
  { id: "dialogue", path: "/dialogue", file: "routes/mobi/dialogue.tsx", layout: "lean", mobiOnly: true },
  { id: "withdrawal_tip", path: "/withdrawal_tip", file: "routes/mobi/withdrawal-tip.tsx", layout: "site", mobiOnly: true },
  { id: "intro", path: "/intro", file: "routes/mobi/intro.tsx", layout: "site", mobiOnly: true },
  { id: "scan", path: "/scan", file: "routes/mobi/scan.tsx", layout: "site", mobiOnly: true },
  { id: "error", path: "/error", file: "routes/mobi/error.tsx", layout: "bare", mobiOnly: true },
  { id: "upgrade_mobi", path: "/upgrade", file: "routes/mobi/upgrade.tsx", layout: "site", mobiOnly: true },
];

export const MOBI_PREFIX = "/mobi";

export const LAYOUT_FILES: Record<TLayout, string> = {
  site: "components/layouts/site-layout.tsx",
  bare: "components/layouts/bare-layout.tsx",
  auth: "components/layouts/auth-layout.tsx",
  console: "components/layouts/console-layout.tsx",
  lean: "components/layouts/lean-layout.tsx",
};

export function toMobiPath(path: string) {
  if (path === MOBI_PREFIX || path.startsWith(`${MOBI_PREFIX}/`)) return path;
  return path === "/" ? MOBI_PREFIX : `${MOBI_PREFIX}${path}`;
}

export function isMobiPath(pathname: string) {
  return pathname === MOBI_PREFIX || pathname.startsWith(`${MOBI_PREFIX}/`);
}

/** Whether a desktop path has a page; used to keep phone links from pointing at desktop-only paths. */
export function hasDesktopPage(pathname: string) {
  return ROUTE_TABLE.some((r) => !r.mobiOnly && r.path === pathname);
}
