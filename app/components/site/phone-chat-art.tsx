// A small drawing for the phone chat pages: a phone showing a conversation beside a QR code.
// Data modules of an 11x11 code; the three finder squares are drawn separately.
const QR_DOTS = [
  "00001010000",
  "00000100000",
  "00001110000",
  "00000010000",
  "10110101101",
  "01001010010",
  "11010111011",
  "00000101000",
  "00001100110",
  "00000011010",
  "00001010111",
];
const FINDERS = [
  [0, 0],
  [7, 0],
  [0, 7],
];

export function PhoneChatArt({ size = 200 }: { size?: number }) {
  return (
    <svg width={size} height={(size * 170) / 220} viewBox="0 0 220 170" aria-hidden="true" style={{ display: "block", margin: "0 auto" }}>
      <defs>
        <linearGradient id="pca-bg" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#eef2ff" />
          <stop offset="1" stopColor="#ecfeff" />
        </linearGradient>
        <linearGradient id="pca-brand" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#4f46e5" />
          <stop offset="1" stopColor="#06b6d4" />
        </linearGradient>
      </defs>
      <circle cx="110" cy="88" r="78" fill="url(#pca-bg)" />
      <rect x="62" y="14" width="84" height="148" rx="16" fill="#0f172a" />
      <rect x="67" y="24" width="74" height="128" rx="10" fill="#fff" />
      <rect x="92" y="18" width="24" height="3" rx="1.5" fill="#334155" />
      <rect x="73" y="34" width="46" height="14" rx="7" fill="#f1f5f9" />
      <rect x="89" y="54" width="46" height="14" rx="7" fill="url(#pca-brand)" />
      <rect x="73" y="74" width="54" height="22" rx="8" fill="#f1f5f9" />
      <rect x="79" y="80" width="38" height="3" rx="1.5" fill="#cbd5e1" />
      <rect x="79" y="87" width="28" height="3" rx="1.5" fill="#cbd5e1" />
      <rect x="101" y="102" width="34" height="14" rx="7" fill="url(#pca-brand)" />
      <rect x="73" y="134" width="62" height="11" rx="5.5" fill="#f8fafc" stroke="#e2e8f0" />
      <g transform="translate(134 88)">
        <rect width="58" height="58" rx="10" fill="#fff" stroke="#c7d2fe" strokeWidth="1.5" />
        {FINDERS.map(([x, y]) => (
          <g key={`f${x}-${y}`} transform={`translate(${7 + x * 4} ${7 + y * 4})`}>
            <rect x="0.8" y="0.8" width="10.4" height="10.4" rx="2" fill="none" stroke="#312e81" strokeWidth="1.6" />
            <rect x="3.4" y="3.4" width="5.2" height="5.2" rx="1" fill="#312e81" />
          </g>
        ))}
        {QR_DOTS.flatMap((row, y) =>
          row
            .split("")
            .map((c, x) => (c === "1" ? <rect key={`${x}-${y}`} x={7 + x * 4} y={7 + y * 4} width="3.4" height="3.4" rx="0.8" fill="#312e81" /> : null)),
        )}
      </g>
      <path d="M40 40l3 7 7 3-7 3-3 7-3-7-7-3 7-3z" fill="#a5b4fc" />
      <path d="M186 36l2 4.5 4.5 2-4.5 2-2 4.5-2-4.5-4.5-2 4.5-2z" fill="#67e8f9" />
    </svg>
  );
}
