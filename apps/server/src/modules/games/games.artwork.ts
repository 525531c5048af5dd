import type { TGameCategory } from '@sorte/contract';
import { motifOf, motifSvg } from './games.motifs.ts';

/**
 * Game artwork, drawn here (our own vector art, no third-party assets): every in-house game and
 * every third-party title gets its own motif (games.motifs.ts) over the category's colours shifted
 * by a hash of its code, a pattern, a light and a shadow; in a square lobby size and a wide banner
 * size. Deterministic, so the same game always looks the same and caches well.
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

type TArtGame = { code: string; name: string; category: TGameCategory; providerName: string };

function hashOf(code: string): number {
  let hash = 2166136261;
  for (const char of code) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

/** The shared paints of a game's artwork: its palette, light from the top left, and a shadow. */
function paints(game: TArtGame, hash: number): string {
  const [from, to] = CATEGORY_COLORS[game.category];
  const accentHue = hash % 360;
  return [
    '<defs>',
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>`,
    '<radialGradient id="light" cx=".28" cy=".2" r=".9"><stop offset="0" stop-color="#fff" stop-opacity=".42"/><stop offset=".45" stop-color="#fff" stop-opacity=".06"/><stop offset="1" stop-color="#000" stop-opacity=".35"/></radialGradient>',
    '<linearGradient id="gloss" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff" stop-opacity=".28"/><stop offset=".5" stop-color="#fff" stop-opacity="0"/></linearGradient>',
    '<linearGradient id="hi" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#cfd6e6"/></linearGradient>',
    `<linearGradient id="mid" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>`,
    '<linearGradient id="lo" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2a3552"/><stop offset="1" stop-color="#0e1424"/></linearGradient>',
    '<linearGradient id="gold" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fff1a8"/><stop offset=".5" stop-color="#f5c542"/><stop offset="1" stop-color="#b47a00"/></linearGradient>',
    `<linearGradient id="accent" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${accentHue} 90% 62%)"/><stop offset="1" stop-color="hsl(${(accentHue + 40) % 360} 80% 38%)"/></linearGradient>`,
    '<linearGradient id="flame" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff3b0"/><stop offset=".5" stop-color="#ffb020"/><stop offset="1" stop-color="#ff4d2e" stop-opacity=".2"/></linearGradient>',
    '<linearGradient id="gem" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#b8fff0"/><stop offset="1" stop-color="#0fa3a3"/></linearGradient>',
    '<radialGradient id="pearl" cx=".35" cy=".35"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#c8d2ff"/></radialGradient>',
    '<linearGradient id="wood" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#a0622d"/><stop offset="1" stop-color="#5a3216"/></linearGradient>',
    '<linearGradient id="sand" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#f5d98a"/><stop offset="1" stop-color="#c89b3c"/></linearGradient>',
    '<linearGradient id="steel" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#e6ebf5"/><stop offset="1" stop-color="#7b879e"/></linearGradient>',
    '<filter id="shadow" x="-20%" y="-20%" width="140%" height="150%"><feDropShadow dx="0" dy="8" stdDeviation="7" flood-color="#000" flood-opacity=".45"/></filter>',
    '<radialGradient id="glow"><stop offset="0" stop-color="#fff" stop-opacity=".45"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>',
    '</defs>',
  ].join('');
}

/** A background pattern picked by the game's hash, so titles of one category still differ. */
function pattern(hash: number, width: number, height: number): string {
  const kind = (hash >>> 8) % 4;
  const cx = width * 0.62;
  const cy = height * 0.45;
  if (kind === 0) {
    return `<g opacity=".14" fill="#fff">${Array.from({ length: 16 }, (_, i) => {
      const a = (i * Math.PI) / 8;
      const b = a + Math.PI / 20;
      const r = width + height;
      return `<path d="M${cx} ${cy}L${(cx + r * Math.cos(a)).toFixed(1)} ${(cy + r * Math.sin(a)).toFixed(1)}L${(cx + r * Math.cos(b)).toFixed(1)} ${(cy + r * Math.sin(b)).toFixed(1)}Z"/>`;
    }).join('')}</g>`;
  }
  if (kind === 1) {
    const dots: string[] = [];
    for (let y = 12; y < height; y += 24)
      for (let x = 12; x < width; x += 24) dots.push(`<circle cx="${x}" cy="${y}" r="2.2"/>`);
    return `<g fill="#fff" opacity=".16">${dots.join('')}</g>`;
  }
  if (kind === 2) {
    return `<g fill="none" stroke="#fff" opacity=".13" stroke-width="10">${[60, 110, 160, 210, 260]
      .map((r) => `<circle cx="${cx}" cy="${cy}" r="${r}"/>`)
      .join('')}</g>`;
  }
  const diamonds: string[] = [];
  for (let y = 0; y < height + 40; y += 40)
    for (let x = (y / 40) % 2 ? 20 : 0; x < width + 40; x += 40)
      diamonds.push(`<path d="M${x} ${y - 14}l14 14-14 14-14-14z"/>`);
  return `<g fill="#fff" opacity=".09">${diamonds.join('')}</g>`;
}

/**
 * A game's square lobby artwork (300 × 300): the category's colours shifted per game, a pattern
 * and a light from the top left, the game's own motif with its shadow and a gloss. The name is not
 * drawn: the tile prints it under the artwork. Deterministic, so it caches well.
 */
export function gameThumbnail(game: TArtGame): string {
  const hash = hashOf(game.code);
  const motif = motifOf(game, hash);
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 300 300">',
    paints(game, hash),
    `<rect width="300" height="300" rx="24" fill="url(#bg)" style="filter:hue-rotate(${hueShift(game.code)}deg)"/>`,
    pattern(hash, 300, 300),
    '<ellipse cx="150" cy="150" rx="120" ry="110" fill="url(#glow)"/>',
    `<g transform="translate(50 44)" filter="url(#shadow)">${motifSvg(motif, hash)}</g>`,
    '<rect width="300" height="300" rx="24" fill="url(#light)"/>',
    '<rect width="300" height="150" rx="24" fill="url(#gloss)"/>',
    '</svg>',
  ].join('');
}

/**
 * The wide banner of a game (640 × 280): the same scene with the motif on the right and the name
 * and studio on the left, for places that show one game large.
 */
export function gameBanner(game: TArtGame): string {
  const hash = hashOf(game.code);
  const motif = motifOf(game, hash);
  const lines = wrap(game.name, 16);
  const title = lines
    .map(
      (line, i) =>
        `<text x="36" y="${(lines.length === 1 ? 146 : 124) + i * 44}" font-size="40" font-weight="800" fill="#fff">${escapeXml(line)}</text>`,
    )
    .join('');
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="280" viewBox="0 0 640 280" font-family="system-ui, sans-serif">',
    paints(game, hash),
    `<rect width="640" height="280" rx="24" fill="url(#bg)" style="filter:hue-rotate(${hueShift(game.code)}deg)"/>`,
    pattern(hash, 640, 280),
    '<ellipse cx="470" cy="140" rx="170" ry="130" fill="url(#glow)"/>',
    `<g transform="translate(360 20) scale(1.2)" filter="url(#shadow)">${motifSvg(motif, hash)}</g>`,
    '<rect width="640" height="280" rx="24" fill="url(#light)"/>',
    title,
    `<text x="36" y="${lines.length === 1 ? 186 : 208}" font-size="20" fill="#fff" opacity=".85">${escapeXml(game.providerName)}</text>`,
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
