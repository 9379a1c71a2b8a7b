/** Layered ink-wash peaks and drifting clouds behind the landing hero; decoration only. */
export function MountainScene({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 1200 400"
      preserveAspectRatio="xMidYMax slice"
      aria-hidden="true"
      focusable="false"
      className={className}
    >
      <defs>
        <linearGradient id="peak-far" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#6fb8a2" stopOpacity="0.35" />
          <stop offset="1" stopColor="#6fb8a2" stopOpacity="0.05" />
        </linearGradient>
        <linearGradient id="peak-near" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#0b2b25" stopOpacity="0.9" />
          <stop offset="1" stopColor="#0b2b25" stopOpacity="0.6" />
        </linearGradient>
      </defs>
      <path
        d="M0 300 L120 190 L200 250 L330 120 L450 240 L560 160 L680 260 L820 110 L950 230 L1060 170 L1200 260 L1200 400 L0 400 Z"
        fill="url(#peak-far)"
      />
      <path
        d="M0 340 L90 280 L170 320 L290 230 L400 320 L520 260 L640 330 L760 240 L900 330 L1010 280 L1120 320 L1200 290 L1200 400 L0 400 Z"
        fill="url(#peak-near)"
      />
      <g fill="#f3ead6" opacity="0.08">
        <ellipse cx="880" cy="190" rx="170" ry="10" />
        <ellipse cx="1040" cy="300" rx="160" ry="12" />
      </g>
    </svg>
  );
}
