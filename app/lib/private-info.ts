// The browser derives private_info from the system config and keeps it in session storage.
export type TSystemConfigData = {
  domain: string;
  config: unknown;
  pay_enable: boolean;
  app_audio_enable: boolean;
  private: boolean;
  intelligent_agent_market?: boolean;
};

export type TPrivateInfo = {
  pay_enable: boolean;
  app_audio_enable: boolean;
  domain: { second_level: string; top_level: string };
  is_private: boolean;
  is_finished: boolean;
};

export const PRIVATE_INFO_KEY = "private_info";

/** "app.zelinai.com" → second level "app", top level "zelinai.com"; "zelinai.com" → "", "zelinai.com". */
export function splitDomain(domain: string) {
  const host = domain
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/[/:].*$/, "");
  const parts = host.split(".").filter(Boolean);
  if (parts.length <= 2) return { second_level: "", top_level: parts.join(".") };
  return { second_level: parts.slice(0, -2).join("."), top_level: parts.slice(-2).join(".") };
}

export function derivePrivateInfo(data: TSystemConfigData): TPrivateInfo {
  return {
    pay_enable: Boolean(data.pay_enable),
    app_audio_enable: Boolean(data.app_audio_enable),
    domain: splitDomain(data.domain ?? ""),
    is_private: Boolean(data.private),
    is_finished: true,
  };
}
