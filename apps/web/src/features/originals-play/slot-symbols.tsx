/** Drawn artwork for the nine slot symbols (no images, no fonts needed). */
export const SLOT_SYMBOLS = [
  'wild',
  'scatter',
  'seven',
  'bar',
  'bell',
  'melon',
  'plum',
  'orange',
  'lemon',
] as const;
export type TSlotSymbol = (typeof SLOT_SYMBOLS)[number];

export function SlotSymbol({ symbol }: { symbol: string }) {
  return (
    <svg viewBox="0 0 40 40" className={`slot-symbol is-${symbol}`} aria-hidden="true">
      {symbol === 'wild' && (
        <>
          <rect x="3" y="9" width="34" height="22" rx="6" fill="#f5c542" />
          <text x="20" y="24.5" textAnchor="middle" fontSize="9.5" fontWeight="900" fill="#3a2200">
            WILD
          </text>
        </>
      )}
      {symbol === 'scatter' && (
        <path
          d="M20 3 L24.7 14.6 L37 15.3 L27.5 23.2 L30.6 35.3 L20 28.6 L9.4 35.3 L12.5 23.2 L3 15.3 L15.3 14.6 Z"
          fill="#b06cff"
          stroke="#fff"
          strokeWidth="1.5"
        />
      )}
      {symbol === 'seven' && (
        <text
          x="20"
          y="33"
          textAnchor="middle"
          fontSize="34"
          fontWeight="900"
          fill="#ff3b4f"
          stroke="#fff"
          strokeWidth="1"
        >
          7
        </text>
      )}
      {symbol === 'bar' && (
        <>
          <rect x="4" y="12" width="32" height="16" rx="3" fill="#d8def0" />
          <text x="20" y="24.5" textAnchor="middle" fontSize="11" fontWeight="900" fill="#14161f">
            BAR
          </text>
        </>
      )}
      {symbol === 'bell' && (
        <>
          <path d="M20 6 C11 6 10 16 10 22 L7 28 L33 28 L30 22 C30 16 29 6 20 6 Z" fill="#f5b642" />
          <circle cx="20" cy="31" r="3.5" fill="#c47f12" />
        </>
      )}
      {symbol === 'melon' && (
        <>
          <path d="M4 14 A16 16 0 0 0 36 14 Z" fill="#2fd08b" />
          <path d="M7 14 A13 13 0 0 0 33 14 Z" fill="#ff5a6a" />
          <circle cx="14" cy="19" r="1.4" fill="#222" />
          <circle cx="20" cy="22" r="1.4" fill="#222" />
          <circle cx="26" cy="19" r="1.4" fill="#222" />
        </>
      )}
      {symbol === 'plum' && (
        <>
          <circle cx="20" cy="22" r="12" fill="#7b3fc4" />
          <path d="M20 10 C22 5 27 4 30 6 C27 9 23 10 20 10 Z" fill="#2fd08b" />
        </>
      )}
      {symbol === 'orange' && (
        <>
          <circle cx="20" cy="21" r="13" fill="#ff9a2e" />
          <circle cx="20" cy="8" r="2" fill="#2fd08b" />
        </>
      )}
      {symbol === 'lemon' && (
        <ellipse cx="20" cy="20" rx="15" ry="10.5" fill="#ffe14d" transform="rotate(-20 20 20)" />
      )}
    </svg>
  );
}
