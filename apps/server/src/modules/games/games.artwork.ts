import type { TGameCategory } from '@sorte/contract';

/**
 * Lobby thumbnails, drawn here (our own artwork, no third-party assets): a gradient in the
 * category's colours shifted by a hash of the game code, the category's emblem, and the game and
 * provider names. Deterministic, so the same game always looks the same and caches well.
 */

const CATEGORY_COLORS: Record<TGameCategory, [string, string]> = {
  slots: ['#7b2ff7', '#f107a3'],
  live_casino: ['#0f9b0f', '#004d1a'],
  arcade: ['#f7971e', '#c2410c'],
  crash: ['#e52d27', '#6b0f1a'],
  fish: ['#00b4db', '#0052a3'],
  bingo: ['#f953c6', '#7a1f6e'],
  card: ['#134e5e', '#0b2a33'],
  lottery: ['#f5c542', '#a86b00'],
  sports: ['#43c6ac', '#1f5f4f'],
  video_game: ['#4e54c8', '#1b1f5e'],
};

/** Simple shapes per category, drawn in a 100×100 box centred at the top of the card. */
const EMBLEMS: Record<TGameCategory, string> = {
  slots:
    '<rect x="10" y="20" width="80" height="60" rx="10" fill="none" stroke="#fff" stroke-width="6"/><text x="50" y="64" font-size="34" text-anchor="middle" fill="#fff" font-weight="700">777</text>',
  live_casino:
    '<circle cx="50" cy="50" r="38" fill="none" stroke="#fff" stroke-width="6"/><circle cx="50" cy="50" r="12" fill="#fff"/><path d="M50 12v16M50 72v16M12 50h16M72 50h16" stroke="#fff" stroke-width="6"/>',
  arcade:
    '<rect x="14" y="30" width="72" height="44" rx="20" fill="#fff"/><circle cx="34" cy="52" r="7" fill="#333"/><circle cx="66" cy="46" r="5" fill="#333"/><circle cx="74" cy="56" r="5" fill="#333"/>',
  crash:
    '<path d="M12 84 C40 80 60 60 84 16" fill="none" stroke="#fff" stroke-width="7" stroke-linecap="round"/><circle cx="84" cy="16" r="8" fill="#fff"/>',
  fish: '<path d="M14 50 Q44 16 74 50 Q44 84 14 50Z" fill="#fff"/><path d="M74 50 L92 34 L92 66Z" fill="#fff"/><circle cx="32" cy="46" r="4" fill="#333"/>',
  bingo:
    '<circle cx="50" cy="50" r="38" fill="#fff"/><text x="50" y="62" font-size="32" text-anchor="middle" fill="#7a1f6e" font-weight="700">B</text>',
  card: '<rect x="22" y="12" width="48" height="70" rx="8" fill="#fff" transform="rotate(-10 46 47)"/><rect x="34" y="18" width="48" height="70" rx="8" fill="#fff" stroke="#333" stroke-width="2" transform="rotate(8 58 53)"/><path d="M58 44 l8 10 -8 10 -8 -10z" fill="#d22"/>',
  lottery:
    '<circle cx="34" cy="40" r="18" fill="#fff"/><circle cx="64" cy="36" r="14" fill="#fff" opacity=".85"/><circle cx="56" cy="66" r="16" fill="#fff" opacity=".7"/>',
  sports:
    '<circle cx="50" cy="50" r="38" fill="#fff"/><path d="M50 30 l14 10 -5 16 h-18 l-5 -16z" fill="#333"/>',
  video_game:
    '<path d="M20 36 h60 a12 12 0 0 1 12 12 v8 a12 12 0 0 1 -22 6 l-6 -6 h-28 l-6 6 a12 12 0 0 1 -22 -6 v-8 a12 12 0 0 1 12 -12z" fill="#fff"/>',
};

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function hueShift(code: string): number {
  let hash = 0;
  for (const char of code) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return (hash % 60) - 30;
}

/** Splits a name into at most two lines of about `width` characters. */
function wrap(name: string, width = 14): string[] {
  const words = name.split(/\s+/);
  const lines: string[] = [''];
  for (const word of words) {
    const current = lines[lines.length - 1]!;
    if (current && `${current} ${word}`.length > width && lines.length < 2) lines.push(word);
    else lines[lines.length - 1] = current ? `${current} ${word}` : word;
  }
  return lines;
}

export function gameThumbnail(game: {
  code: string;
  name: string;
  category: TGameCategory;
  providerName: string;
}): string {
  const [from, to] = CATEGORY_COLORS[game.category];
  const lines = wrap(game.name);
  const text = lines
    .map(
      (line, i) =>
        `<text x="150" y="${lines.length === 1 ? 238 : 222 + i * 30}" font-size="26" text-anchor="middle" fill="#fff" font-weight="700">${escapeXml(line)}</text>`,
    )
    .join('');
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 300 300" font-family="system-ui, sans-serif">',
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>`,
    `<rect width="300" height="300" rx="24" fill="url(#g)" style="filter:hue-rotate(${hueShift(game.code)}deg)"/>`,
    `<g transform="translate(90 40) scale(1.2)">${EMBLEMS[game.category]}</g>`,
    text,
    `<text x="150" y="284" font-size="15" text-anchor="middle" fill="#fff" opacity=".8">${escapeXml(game.providerName)}</text>`,
    '</svg>',
  ].join('');
}

/** A provider's wordmark for the provider strip: its initials in a badge and its name. */
export function providerLogo(provider: { code: string; name: string }): string {
  const initials = provider.name
    .split(/\s+/)
    .map((word) => word[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  const hue = (hueShift(provider.code) + 30) * 6;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80" viewBox="0 0 240 80" font-family="system-ui, sans-serif">',
    `<rect x="4" y="8" width="64" height="64" rx="16" fill="hsl(${hue} 70% 45%)"/>`,
    `<text x="36" y="50" font-size="26" text-anchor="middle" fill="#fff" font-weight="800">${escapeXml(initials)}</text>`,
    `<text x="80" y="48" font-size="20" fill="#fff" font-weight="700">${escapeXml(provider.name)}</text>`,
    '</svg>',
  ].join('');
}
