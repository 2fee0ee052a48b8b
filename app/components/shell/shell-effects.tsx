// Browser-side duties of the shell on every page: remember touser, configure the API client,
// load the system config into session storage, and check the licence.
import { useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { apiRequest, configureApiClient, LICENCE_EVENT, type TLicenceEventDetail } from "../../lib/api-client";
import { TOUSER } from "../../lib/carry-query";
import { derivePrivateInfo, PRIVATE_INFO_KEY, type TSystemConfigData } from "../../lib/private-info";
import { useShell } from "./shell-context";

export function ShellEffects() {
  const { ownHosts, setLicenceNotice } = useShell();
  const location = useLocation();

  useEffect(() => {
    // Tests and tools wait for this before they type: before hydration, input would be lost.
    document.documentElement.dataset.hydrated = "1";
  }, []);

  useEffect(() => {
    const touser = new URLSearchParams(location.search).get(TOUSER);
    if (touser) sessionStorage.setItem(TOUSER, touser);
  }, [location.search]);

  useEffect(() => {
    configureApiClient({
      location: window.location,
      ownHosts,
      dispatch: (name, detail) => window.dispatchEvent(new CustomEvent(name, { detail })),
      touser: () => new URLSearchParams(window.location.search).get(TOUSER) ?? sessionStorage.getItem(TOUSER),
    });
    const onLicence = (e: Event) => setLicenceNotice((e as CustomEvent<TLicenceEventDetail>).detail);
    window.addEventListener(LICENCE_EVENT, onLicence);
    void apiRequest<TSystemConfigData>("/api/v1/system/config")
      .then((data) => sessionStorage.setItem(PRIVATE_INFO_KEY, JSON.stringify(derivePrivateInfo(data))))
      .catch(() => {});
    void apiRequest("/api/v1/account/version_check").catch(() => {});
    return () => window.removeEventListener(LICENCE_EVENT, onLicence);
  }, [ownHosts, setLicenceNotice]);

  return null;
}
