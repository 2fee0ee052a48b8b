// The entry point for sending and checking codes. Importing the providers here (not in
// sms.service.ts, which they import to register) makes every configured provider known before
// the first code goes out.
import "./aliyun-sms-provider";

export { getSmsProvider, sendSmsCode, verifySmsCode } from "./sms.service";
