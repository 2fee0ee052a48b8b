// Where verification codes go out. The development provider keeps them for the dev page; real
// providers (Aliyun) are chosen by settings. Providers only deliver: throttling and codes live in
// sms.service.ts.
export type TSmsMessage = { phone: string; code: string; purpose: string; text: string };

export interface SmsProvider {
  readonly name: string;
  send(message: TSmsMessage): Promise<void>;
}
