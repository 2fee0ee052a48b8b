// Which addresses a fetch made on a user's behalf may reach: the public internet only.
// The SSRF guard as a whole is described in docs/security.md.
import net from "node:net";

const blocked = new net.BlockList();
// IPv4: this host, private, carrier-grade NAT, loopback, link-local (cloud metadata lives at
// 169.254.169.254), IETF protocol assignments, documentation, benchmarking, multicast, reserved.
for (const [subnet, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(subnet, prefix, "ipv4");
}
// IPv6: unspecified, loopback, unique-local (fd00:ec2::254 is a metadata address), link-local,
// site-local, multicast, documentation, NAT64 and 6to4 (which can embed private IPv4 addresses).
for (const [subnet, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
  ["2001:db8::", 32],
  ["64:ff9b::", 96],
  ["2002::", 16],
] as const) {
  blocked.addSubnet(subnet, prefix, "ipv6");
}

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is. */
function unwrapMapped(address: string) {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1] : address;
}

export function isPublicAddress(address: string): boolean {
  const plain = unwrapMapped(address);
  const family = net.isIP(plain);
  if (family === 0) return false;
  return !blocked.check(plain, family === 4 ? "ipv4" : "ipv6");
}
