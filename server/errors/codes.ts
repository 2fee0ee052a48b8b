// The catalogue of refusals. Each code has the envelope status the browser reads, the HTTP status,
// and an i18n key in public/locales/<lng>/errors.json. Every message a user can be refused with is here.
export const ERROR_CODES = {
  // Platform codes the browser acts on by number (110003 opens login, 494105 redirects, 1000x the licence).
  not_logged_in: { status: 110003, http: 401 },
  redirect: { status: 494105, http: 200 },
  licence_expiring: { status: 10001, http: 200 },
  licence_expired: { status: 10002, http: 403 },
  // General.
  validation_failed: { status: 400001, http: 400 },
  not_found: { status: 404001, http: 404 },
  no_permission: { status: 403001, http: 403 },
  rate_limited: { status: 429001, http: 429 },
  internal_error: { status: 500001, http: 500 },
  malformed_body: { status: 400002, http: 400 },
  body_too_large: { status: 413001, http: 413 },
  // Refusals a user reads as a message.
  balance_insufficient: { status: 420001, http: 402 },
  trial_exhausted: { status: 420002, http: 402 },
  times_exhausted: { status: 420003, http: 429 },
  days_exhausted: { status: 420004, http: 402 },
  system_busy: { status: 420005, http: 503 },
  too_many_users: { status: 420006, http: 503 },
  network_poor: { status: 420007, http: 502 },
  payment_failed: { status: 420008, http: 402 },
  sensitive_input: { status: 420009, http: 422 },
  content_illegal: { status: 420010, http: 422 },
  output_review_failed: { status: 420011, http: 422 },
  key_banned: { status: 420012, http: 502 },
  registration_full: { status: 420013, http: 409 },
  characters_insufficient: { status: 420014, http: 402 },
  document_expired: { status: 420015, http: 410 },
  upload_failed: { status: 420016, http: 500 },
  file_too_large: { status: 420017, http: 413 },
  file_empty_or_prohibited: { status: 420018, http: 422 },
  training_failed: { status: 420019, http: 422 },
  channel_test_failed: { status: 420020, http: 502 },
  channel_in_use: { status: 420021, http: 409 },
  model_no_plugins: { status: 420022, http: 422 },
  repeat_action: { status: 420023, http: 409 },
  cannot_follow_self: { status: 420024, http: 422 },
  already_liked: { status: 420025, http: 409 },
  already_collected: { status: 420026, http: 409 },
  password_mismatch: { status: 420027, http: 422 },
  bot_limit_reached: { status: 420028, http: 402 },
  bot_package_expired: { status: 420029, http: 402 },
  no_voice_package: { status: 420030, http: 402 },
  // Personal voices: recording one needs a voice package with a slot left; a voice whose check or
  // training failed is recorded again, not retried (the same recording would fail the same way).
  voice_retry_refused: { status: 421702, http: 409 },
  not_certified_engineer: { status: 420031, http: 403 },
  task_cancel_too_soon: { status: 420032, http: 409 },
  submissions_exceed_five: { status: 420033, http: 409 },
  ranking_repeat: { status: 420034, http: 409 },
  database_verification_failed: { status: 420035, http: 422 },
  pc_required: { status: 420036, http: 422 },
  // Accounts.
  invalid_credentials: { status: 420101, http: 401 },
  login_locked: { status: 420102, http: 429 },
  sms_too_frequent: { status: 420103, http: 429 },
  sms_daily_limit: { status: 420104, http: 429 },
  sms_code_invalid: { status: 420105, http: 422 },
  phone_not_registered: { status: 420106, http: 404 },
  account_taken: { status: 420107, http: 409 },
  phone_taken: { status: 420108, http: 409 },
  invitation_invalid: { status: 420109, http: 422 },
  registration_closed: { status: 420110, http: 403 },
  registration_requires_payment: { status: 420111, http: 402 },
  account_disabled: { status: 420112, http: 403 },
  edition_upgrade_required: { status: 420113, http: 402 },
  csrf_failed: { status: 420114, http: 403 },
  wechat_login_failed: { status: 420115, http: 502 },
  wechat_already_bound: { status: 420116, http: 409 },
  enterprise_not_found: { status: 420117, http: 404 },
  wechat_login_unavailable: { status: 420118, http: 503 },
  wechat_unbind_needs_password: { status: 420119, http: 409 },
  /** No SMS provider on this deployment: a production configuration never falls back to the development one. */
  sms_unavailable: { status: 420120, http: 503 },
  // Phone binding: the phone asked for is already this account's; replacing a bound phone needs a password.
  phone_unchanged: { status: 421201, http: 409 },
  phone_change_needs_password: { status: 421202, http: 409 },
  // Uploads: what a file is is decided by its content, not its name.
  file_type_not_allowed: { status: 420201, http: 415 },
  image_size_out_of_range: { status: 420202, http: 422 },
  document_type_not_allowed: { status: 420203, http: 415 },
  text_file_type_not_allowed: { status: 420204, http: 415 },
  video_type_not_allowed: { status: 420205, http: 415 },
  // A voice recording that is none of the audio formats a voice is cloned from.
  audio_type_not_allowed: { status: 421703, http: 415 },
  media_type_not_allowed: { status: 420206, http: 415 },
  too_many_files: { status: 420207, http: 422 },
  media_daily_limit: { status: 420208, http: 429 },
  // What the form said a file is disagrees with its content; a name with folders or control
  // characters; a form that cannot be parsed; an archive, picture or PDF that unpacks past the caps.
  file_type_mismatch: { status: 420209, http: 415 },
  file_name_not_allowed: { status: 420210, http: 422 },
  upload_malformed: { status: 420211, http: 400 },
  file_unpacks_too_large: { status: 420212, http: 422 },
  // Model gateway.
  model_unavailable: { status: 420301, http: 503 },
  model_in_use: { status: 420302, http: 409 },
  // Agents and the runtime.
  invalid_state_transition: { status: 420401, http: 409 },
  agent_not_editable: { status: 420402, http: 409 },
  version_not_higher: { status: 420403, http: 422 },
  dialogue_busy: { status: 420404, http: 409 },
  plugin_failed: { status: 420405, http: 502 },
  model_failed: { status: 420406, http: 502 },
  document_type_not_readable: { status: 420407, http: 415 },
  // Reading a document's text ran past its time or memory limit.
  document_too_complex: { status: 420408, http: 422 },
  // Database training sets: a query refused before it runs, failed, or stopped by its time limit.
  sql_refused: { status: 420501, http: 422 },
  sql_failed: { status: 420502, http: 502 },
  sql_timeout: { status: 420503, http: 503 },
  // Training sets (standard and smart): a move their state does not allow, a paused storage
  // service, an action for another type of set, Q&A duplicates and import files.
  training_set_state_refused: { status: 420601, http: 409 },
  training_set_unavailable: { status: 420602, http: 409 },
  training_set_wrong_type: { status: 420603, http: 409 },
  qa_question_duplicate: { status: 420604, http: 409 },
  qa_import_unreadable: { status: 420605, http: 422 },
  qa_import_too_many_rows: { status: 420606, http: 422 },
  // Apps: the entitlement's refusal when the app sells plans ("trial count is 0, purchase");
  // times_exhausted and days_exhausted above are its other two.
  trial_count_zero: { status: 420702, http: 402 },
  // Apps: a move the app's state does not allow.
  app_state_refused: { status: 420701, http: 409 },
  // Apps: no voice model is configured or none of its channels answers.
  voice_unavailable: { status: 420703, http: 503 },
  // Money. A key used again for another request; an order that is not (or no longer)
  // payable; a withdrawal refused by its rules; a purchase of something not for sale.
  idempotency_conflict: { status: 420801, http: 409 },
  topup_amount_invalid: { status: 420802, http: 422 },
  payment_order_state: { status: 420803, http: 409 },
  payment_provider_unavailable: { status: 420804, http: 503 },
  payment_signature_invalid: { status: 420805, http: 400 },
  withdrawal_below_minimum: { status: 420806, http: 422 },
  withdrawal_forbidden: { status: 420807, http: 403 },
  withdrawal_state_refused: { status: 420808, http: 409 },
  not_for_sale: { status: 420809, http: 409 },
  edition_change_refused: { status: 420810, http: 409 },
  app_owner_balance_insufficient: { status: 420811, http: 503 },
  refund_refused: { status: 420812, http: 409 },
  // Content: the sensitive-word list's administration.
  sensitive_words_file_not_text: { status: 420901, http: 415 },
  sensitive_words_too_many: { status: 420902, http: 422 },
  // Generation jobs (images, videos, speech): no channel can make the model's kind; the model takes
  // no tail frame; the account has too many jobs waiting; the job ran past its time; the provider
  // refused the request's parameters; a result's link expired before it was copied; anything else.
  media_model_unavailable: { status: 421301, http: 503 },
  media_tail_frame_unsupported: { status: 421302, http: 422 },
  media_queue_full: { status: 421303, http: 429 },
  generation_timeout: { status: 421304, http: 504 },
  media_request_refused: { status: 421305, http: 422 },
  media_result_expired: { status: 421306, http: 502 },
  generation_failed: { status: 421307, http: 502 },
  // Digital humans through the same jobs: the provider found no face in the figure's video, or the
  // audio or video is longer than it takes; no channel can train a figure or clone a voice.
  digital_no_face: { status: 421310, http: 422 },
  digital_media_too_long: { status: 421311, http: 422 },
  digital_training_unavailable: { status: 421312, http: 503 },
  digital_voice_clone_unavailable: { status: 421313, http: 503 },
  // An agent that films needs a picture to start from; an app must allow the kind of answer its agent gives.
  media_frame_required: { status: 421308, http: 422 },
  app_output_unsupported: { status: 421309, http: 422 },
  // First-run setup: the platform already has an administrator; the one-time setup code is wrong.
  setup_closed: { status: 421101, http: 404 },
  setup_code_invalid: { status: 421102, http: 422 },
  // Figures: a move the figure's state does not allow (keying one still being checked, training one
  // not ready, removing one in training); filmed talk too short for an avatar training; a filming
  // video the worker could not read or prepare.
  figure_state_refused: { status: 421601, http: 409 },
  figure_footage_too_short: { status: 421602, http: 422 },
  figure_processing_failed: { status: 421603, http: 422 },
  // Figures for sale: one that is not (or no longer) offered reads as not found; one's own figure;
  // a price that changed since the buyer saw it; a bought figure is neither sold again nor trained.
  figure_not_for_sale: { status: 421604, http: 404 },
  figure_own: { status: 421605, http: 409 },
  figure_price_changed: { status: 421606, http: 409 },
  figure_purchased_refused: { status: 421607, http: 409 },
  // An avatar training order needs the person's consent clip first.
  figure_consent_missing: { status: 421608, http: 422 },
  // Digital-human videos: a render needs a keyed figure of the owner's, a script of 1 to SCRIPT_MAX
  // characters and a voice that can speak; a render that failed on our side (the composite).
  digital_figure_not_ready: { status: 421801, http: 422 },
  digital_voice_not_ready: { status: 421802, http: 422 },
  digital_script_invalid: { status: 421803, http: 422 },
  digital_render_failed: { status: 421804, http: 502 },
  // Workshops: a save over a newer draft; a draft not yet complete enough to run; the person's
  // words when it is not their turn; a run that has ended.
  workshop_edited_elsewhere: { status: 421901, http: 409 },
  workshop_incomplete: { status: 421902, http: 422 },
  workshop_not_your_turn: { status: 421903, http: 409 },
  workshop_run_ended: { status: 421904, http: 409 },
  // A node's content from a file: of a kind it cannot be, unreadable, or longer than contents may be.
  workshop_content_type_not_allowed: { status: 421905, http: 422 },
  workshop_content_unreadable: { status: 421906, http: 422 },
  workshop_content_too_long: { status: 421907, http: 422 },
} as const satisfies Record<string, { status: number; http: number }>;

export type TErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: unknown): value is TErrorCode {
  return typeof value === "string" && value in ERROR_CODES;
}

export function codeForStatus(status: number): TErrorCode | undefined {
  return (Object.keys(ERROR_CODES) as TErrorCode[]).find((c) => ERROR_CODES[c].status === status);
}
