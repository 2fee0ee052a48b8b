import { describe, expect, it } from "vitest";
import { isPublicAddress } from "./address-policy";

describe("public addresses only", () => {
  it.each(["8.8.8.8", "1.1.1.1", "223.5.5.5", "2606:4700:4700::1111", "240e::1"])("allows %s", (a) => expect(isPublicAddress(a)).toBe(true));
  it.each([
    "127.0.0.1",
    "127.1.2.3",
    "10.0.0.5",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "::",
    "fd00:ec2::254",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:10.1.2.3",
    "64:ff9b::a00:1",
    "2002:0a00:0001::1",
    "not-an-ip",
  ])("refuses %s", (a) => expect(isPublicAddress(a)).toBe(false));
});
