// The providers this deployment offers, built from the payment settings.
import { AppError } from "../../../errors/app-error";
import { getPaymentSettings } from "../payment-settings";
import { createAlipayProvider } from "./alipay.provider";
import type { TPaymentProvider, TProviderId } from "./provider.types";
import { createSandboxProvider } from "./sandbox.provider";
import { createWechatPayProvider } from "./wechatpay.provider";

export type { TPaymentProvider, TProviderId } from "./provider.types";

/** The configured providers, real ones first. */
export function listProviders(): TProviderId[] {
  const s = getPaymentSettings();
  const ids: TProviderId[] = [];
  if (s.wechat) ids.push("wechat");
  if (s.alipay) ids.push("alipay");
  if (s.sandbox) ids.push("sandbox");
  return ids;
}

/** A configured provider, or payment_provider_unavailable. */
export function getProvider(id: string): TPaymentProvider {
  const s = getPaymentSettings();
  if (id === "wechat" && s.wechat) return createWechatPayProvider(s.wechat);
  if (id === "alipay" && s.alipay) return createAlipayProvider(s.alipay);
  if (id === "sandbox" && s.sandbox) return createSandboxProvider();
  throw new AppError("payment_provider_unavailable");
}
