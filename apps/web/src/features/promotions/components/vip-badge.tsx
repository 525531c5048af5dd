import { useId } from 'react';

/**
 * A VIP tier's badge, drawn: a faceted hexagonal medal with a crown, in the tier's metal. Tiers are
 * site data (names and count vary), so the metal follows the tier's rank, climbing from bronze to
 * diamond (a member below the first tier, rank -1, wears steel); tiers past the last metal keep
 * the richest one and gain stars.
 */
const METALS = [
  { key: 'bronze', light: '#f3b27a', dark: '#8a4b1c' },
  { key: 'silver', light: '#f2f5f9', dark: '#7d8796' },
  { key: 'gold', light: '#ffe27a', dark: '#b07a0c' },
  { key: 'platinum', light: '#e6fbfa', dark: '#4d9c98' },
  { key: 'diamond', light: '#d6ecff', dark: '#2f6fd6' },
] as const;

/** Where the stars of tiers beyond diamond sit (none, one, two or three, centred). */
const STAR_SPOTS: readonly (readonly number[])[] = [[], [24], [21.5, 26.5], [19, 24, 29]];

/** A member below the first tier: plain steel, no metal yet. */
const STEEL = { key: 'member', light: '#b9c0cc', dark: '#454c5a' } as const;

export function vipMetal(rank: number) {
  return rank < 0 ? STEEL : METALS[Math.min(rank, METALS.length - 1)]!;
}

export function VipBadge({ rank, size = 40 }: { rank: number; size?: number }) {
  const gradient = useId();
  const metal = vipMetal(rank);
  const stars = Math.max(0, rank - (METALS.length - 1));
  return (
    <svg
      className="vip-badge"
      viewBox="0 0 48 48"
      width={size}
      height={size}
      aria-hidden="true"
      data-testid="vip-badge"
      data-metal={metal.key}
    >
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="0.3" y2="1">
          <stop offset="0" stopColor={metal.light} />
          <stop offset="1" stopColor={metal.dark} />
        </linearGradient>
      </defs>
      <path
        d="M24 2.5 42.5 13v22L24 45.5 5.5 35V13Z"
        fill={`url(#${gradient})`}
        stroke={metal.dark}
        strokeWidth="1.5"
      />
      {/* Facets: the upper half catches the light, the lower falls into shade. */}
      <path d="M24 2.5 42.5 13 24 24 5.5 13Z" fill="#fff" opacity="0.18" />
      <path d="M24 24 42.5 35 24 45.5 5.5 35Z" fill="#000" opacity="0.14" />
      <path
        d="M24 8.5 37 16v16l-13 7.5L11 32V16Z"
        fill="none"
        stroke="#fff"
        strokeOpacity="0.5"
        strokeWidth="1.2"
      />
      <path d="M15.5 29.5 17 19.5l4.3 4.2L24 17l2.7 6.7 4.3-4.2 1.5 10Z" fill="#fff" fillOpacity="0.92" />
      <rect x="15.5" y="31" width="17" height="2.8" rx="1.2" fill="#fff" fillOpacity="0.92" />
      {STAR_SPOTS[Math.min(stars, 3)]!.map((cx) => (
        <circle key={cx} cx={cx} cy="13" r="1.6" fill="#fff" />
      ))}
    </svg>
  );
}
