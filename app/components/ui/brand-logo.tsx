import { useTranslation } from "react-i18next";

export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true">
      <defs>
        <linearGradient id="zl-g" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#4f46e5" />
          <stop offset="1" stopColor="#06b6d4" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="16" fill="url(#zl-g)" />
      <path d="M18 20h28l-20 24h20" fill="none" stroke="#fff" strokeWidth="6" strokeLinecap="round" strokeLinejoin="round" />
      <circle cx="46" cy="20" r="4" fill="#a5f3fc" />
    </svg>
  );
}

export function BrandLogo({ size = 32, light = false }: { size?: number; light?: boolean }) {
  const { t } = useTranslation();
  return (
    <span className={`brand-logo${light ? " brand-logo--light" : ""}`}>
      <BrandMark size={size} />
      <span className="brand-logo__name">{t("brand.name")}</span>
    </span>
  );
}
