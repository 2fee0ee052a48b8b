import { createContext, useContext, useMemo, useState, type ReactNode } from "react";
import { isFlagOn, type TFlag } from "../../lib/feature-flags";
import type { TLicenceEventDetail } from "../../lib/api-client";

type TShellSettings = {
  market: string;
  contactPhone: string;
  ownHosts: string[];
  licence: TLicenceEventDetail | null;
};

type TShell = TShellSettings & {
  licenceNotice: TLicenceEventDetail | null;
  setLicenceNotice: (n: TLicenceEventDetail | null) => void;
};

const ShellContext = createContext<TShell | null>(null);

export function ShellProvider({ settings, children }: { settings: TShellSettings; children: ReactNode }) {
  const [licenceNotice, setLicenceNotice] = useState<TLicenceEventDetail | null>(settings.licence);
  const value = useMemo(() => ({ ...settings, licenceNotice, setLicenceNotice }), [settings, licenceNotice]);
  return <ShellContext.Provider value={value}>{children}</ShellContext.Provider>;
}

export function useShell(): TShell {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error("useShell outside ShellProvider");
  return shell;
}

/** The one way pages ask whether the market shows an element (app/lib/feature-flags.ts). */
export function useFlag(flag: TFlag): boolean {
  return isFlagOn(useShell().market, flag);
}
