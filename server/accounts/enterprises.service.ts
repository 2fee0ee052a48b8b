// An enterprise as its sign-in pages show it (/sso_login?domain=…, /api/v1/qy/info_by_domain):
// found by its domain, without its id.
import * as repo from "./accounts.repository";

export async function findEnterpriseForLogin(domain: string) {
  const enterprise = await repo.findEnterpriseByDomain(domain);
  if (!enterprise) return null;
  const { id: _id, ...shown } = enterprise;
  return shown;
}
