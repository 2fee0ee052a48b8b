// The RPC signature against the examples Aliyun publishes in its documentation: if these pass, a
// real Dysmsapi accepts our requests.
import { describe, expect, it } from "vitest";
import { buildCanonicalQuery, formatAliyunTimestamp, percentEncode, signAliyunRpc } from "./aliyun-signature";

describe("Aliyun RPC signature", () => {
  it("reproduces the SendSms example of the Dysmsapi documentation", () => {
    const params = {
      AccessKeyId: "testId",
      Action: "SendSms",
      Format: "XML",
      OutId: "123",
      PhoneNumbers: "15300000001",
      RegionId: "cn-hangzhou",
      SignName: "阿里云短信测试专用",
      SignatureMethod: "HMAC-SHA1",
      SignatureNonce: "45e25e9b-0a6f-4070-8c85-2956eda1b466",
      SignatureVersion: "1.0",
      TemplateCode: "SMS_71390007",
      TemplateParam: '{"customer":"test"}',
      Timestamp: "2017-07-12T02:42:19Z",
      Version: "2017-05-25",
    };
    expect(buildCanonicalQuery(params)).toBe(
      "AccessKeyId=testId&Action=SendSms&Format=XML&OutId=123&PhoneNumbers=15300000001&RegionId=cn-hangzhou&SignName=%E9%98%BF%E9%87%8C%E4%BA%91%E7%9F%AD%E4%BF%A1%E6%B5%8B%E8%AF%95%E4%B8%93%E7%94%A8&SignatureMethod=HMAC-SHA1&SignatureNonce=45e25e9b-0a6f-4070-8c85-2956eda1b466&SignatureVersion=1.0&TemplateCode=SMS_71390007&TemplateParam=%7B%22customer%22%3A%22test%22%7D&Timestamp=2017-07-12T02%3A42%3A19Z&Version=2017-05-25",
    );
    expect(signAliyunRpc(params, "testSecret")).toBe("zJDF+Lrzhj/ThnlvIToysFRq6t4=");
    // A Signature already among the parameters is not part of what is signed.
    expect(signAliyunRpc({ ...params, Signature: "old" }, "testSecret")).toBe("zJDF+Lrzhj/ThnlvIToysFRq6t4=");
  });

  it("reproduces the DescribeRegions example of the RPC signature documentation", () => {
    const params = {
      Format: "XML",
      AccessKeyId: "testid",
      Action: "DescribeRegions",
      SignatureMethod: "HMAC-SHA1",
      SignatureNonce: "3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf",
      SignatureVersion: "1.0",
      Version: "2014-05-26",
      Timestamp: "2016-02-23T12:46:24Z",
    };
    expect(signAliyunRpc(params, "testsecret")).toBe("OLeaidS1JvxuMvnyHOwuJ+uX5qY=");
  });

  it("percent-encodes by Aliyun's rules", () => {
    expect(percentEncode("a b")).toBe("a%20b");
    expect(percentEncode("*")).toBe("%2A");
    expect(percentEncode("~-_.")).toBe("~-_.");
    expect(percentEncode("!'()")).toBe("%21%27%28%29");
    expect(percentEncode("/=&+")).toBe("%2F%3D%26%2B");
    expect(percentEncode("泽")).toBe("%E6%B3%BD");
  });

  it("writes timestamps in UTC without milliseconds", () => {
    expect(formatAliyunTimestamp(new Date("2026-11-21T03:00:00.789Z"))).toBe("2026-11-21T03:00:00Z");
  });
});
