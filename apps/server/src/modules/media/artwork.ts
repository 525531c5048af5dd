import type { TLanguage } from '@sorte/contract';
import { escapeHtml } from '../../http/html-page.ts';

/**
 * Sorte's own artwork, drawn as SVG in code: site logos and favicons (a four-leaf clover, "sorte"
 * meaning luck), home banners, profile avatars, language flags and social icons. Deterministic, so
 * they cache forever and need no asset pipeline.
 */

export type TPalette = { accent: string; accent2: string; background: string };

const COLOR = /^#[0-9a-fA-F]{3,8}$/;
export function safeColor(value: string | undefined, fallback: string): string {
  return value && COLOR.test(value) ? value : fallback;
}

function clover(cx: number, cy: number, r: number, fill: string): string {
  const d = r * 0.62;
  return `<g fill="${fill}">
<circle cx="${cx - d}" cy="${cy - d}" r="${r}"/><circle cx="${cx + d}" cy="${cy - d}" r="${r}"/>
<circle cx="${cx - d}" cy="${cy + d}" r="${r}"/><circle cx="${cx + d}" cy="${cy + d}" r="${r}"/>
<rect x="${cx - r * 0.18}" y="${cy}" width="${r * 0.36}" height="${r * 2.4}" rx="${r * 0.18}" transform="rotate(-25 ${cx} ${cy})"/>
</g>`;
}

export function siteLogo(name: string, palette: TPalette): string {
  const text = name.slice(0, 24);
  const label = escapeHtml(text);
  // Bold 30 px glyphs average about 19 px; the canvas grows with the name so "Sorte Brasil" is not cut.
  const width = Math.max(160, 72 + Math.ceil(text.length * 19));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="64" viewBox="0 0 ${width} 64" role="img" aria-label="${label}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${palette.accent}"/><stop offset="1" stop-color="${palette.accent2}"/></linearGradient></defs>
${clover(32, 28, 10, 'url(#g)')}
<text x="64" y="42" font-family="system-ui,Segoe UI,Roboto,sans-serif" font-size="30" font-weight="800" letter-spacing="1" fill="url(#g)">${label}</text>
</svg>`;
}

export function siteFavicon(palette: TPalette): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
<rect width="64" height="64" rx="14" fill="${palette.background}"/>
${clover(32, 27, 9.5, palette.accent)}
</svg>`;
}

export const BANNER_DESIGNS = ['welcome', 'live', 'crash', 'pix'] as const;
export type TBannerDesign = (typeof BANNER_DESIGNS)[number];

function bannerScene(design: TBannerDesign, p: TPalette): string {
  switch (design) {
    case 'welcome':
      return `<g transform="translate(820 80)">
<rect x="0" y="90" width="260" height="170" rx="16" fill="${p.accent}"/><rect x="-14" y="60" width="288" height="50" rx="12" fill="${p.accent2}"/>
<rect x="112" y="60" width="36" height="200" fill="#ffffff" opacity=".85"/>
<path d="M130 60 C 80 0, 30 30, 130 60 C 230 30, 180 0, 130 60" fill="none" stroke="#ffffff" stroke-width="14" opacity=".85"/>
</g>`;
    case 'live':
      return `<g transform="translate(800 60)">
<ellipse cx="160" cy="200" rx="190" ry="90" fill="#0f5132" stroke="${p.accent2}" stroke-width="10"/>
${[0, 1, 2, 3, 4]
  .map(
    (i) =>
      `<g transform="translate(${70 + i * 45} ${150 + (i % 2) * 30})"><circle r="22" fill="${i % 2 ? p.accent : '#c0392b'}"/><circle r="14" fill="none" stroke="#fff" stroke-width="4" stroke-dasharray="6 5"/></g>`,
  )
  .join('')}
<rect x="200" y="40" width="70" height="100" rx="8" fill="#fff" transform="rotate(12 235 90)"/><text x="222" y="100" font-size="40" font-family="serif" fill="#c0392b" transform="rotate(12 235 90)">A</text>
</g>`;
    case 'crash':
      return `<g transform="translate(760 40)">
<path d="M0 300 C 120 290, 240 240, 360 60" fill="none" stroke="${p.accent}" stroke-width="10" stroke-linecap="round"/>
<g transform="translate(360 60) rotate(35)"><path d="M0 -50 C 22 -30, 22 20, 14 40 L -14 40 C -22 20, -22 -30, 0 -50Z" fill="#f4f6fb"/>
<circle cy="-8" r="9" fill="${p.accent2}"/><path d="M-14 40 L -26 58 L -8 46Z M14 40 L 26 58 L 8 46Z" fill="${p.accent}"/>
<path d="M-8 46 L 0 80 L 8 46Z" fill="#ff8a3d"/></g>
</g>`;
    case 'pix':
      return `<g transform="translate(880 90)">
<rect x="0" y="0" width="170" height="240" rx="26" fill="#f4f6fb"/><rect x="14" y="28" width="142" height="170" rx="8" fill="${p.background}"/>
<g transform="translate(85 113) rotate(45)" fill="${p.accent}"><rect x="-42" y="-42" width="36" height="36" rx="8"/><rect x="6" y="-42" width="36" height="36" rx="8"/><rect x="-42" y="6" width="36" height="36" rx="8"/><rect x="6" y="6" width="36" height="36" rx="8"/></g>
<circle cx="85" cy="218" r="10" fill="${p.accent2}"/>
</g>`;
  }
}

/** A 3:1 home banner. Titles are data (per language), so the image itself carries no text. */
export function banner(design: TBannerDesign, p: TPalette): string {
  const sparkles = Array.from({ length: 14 }, (_, i) => {
    const x = (i * 137) % 1200;
    const y = (i * 71) % 400;
    return `<circle cx="${x}" cy="${y}" r="${1.5 + (i % 3)}" fill="#fff" opacity="${0.15 + (i % 4) * 0.1}"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="400" viewBox="0 0 1200 400">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${p.background}"/><stop offset="1" stop-color="#1c2233"/></linearGradient>
<radialGradient id="glow" cx=".75" cy=".5" r=".5"><stop offset="0" stop-color="${p.accent}" stop-opacity=".45"/><stop offset="1" stop-color="${p.accent}" stop-opacity="0"/></radialGradient></defs>
<rect width="1200" height="400" fill="url(#bg)"/><rect width="1200" height="400" fill="url(#glow)"/>${sparkles}
${clover(90, 80, 18, p.accent2)}
${bannerScene(design, p)}
</svg>`;
}

export const AVATAR_COUNT = 6;
const SKIN = ['#f1c27d', '#e0ac69', '#c68642', '#8d5524', '#ffdbac', '#d1a17a'];
const HAIR = ['#2c1b10', '#5a3825', '#a0522d', '#111111', '#d4a017', '#6d4c41'];
const SHIRT = ['#1abc9c', '#3498db', '#9b59b6', '#e67e22', '#e74c3c', '#f1c40f'];

/** A friendly round avatar; index 1..AVATAR_COUNT picks skin, hair and shirt colours. */
export function avatar(gender: 'male' | 'female', index: number): string {
  const i = (index - 1) % AVATAR_COUNT;
  const skin = SKIN[i]!;
  const hair = HAIR[(i + (gender === 'female' ? 2 : 0)) % AVATAR_COUNT]!;
  const shirt = SHIRT[(i + (gender === 'female' ? 3 : 0)) % AVATAR_COUNT]!;
  const hairShape =
    gender === 'female'
      ? `<path d="M30 66 C 26 30, 102 30, 98 66 L 104 104 C 92 96, 90 80, 88 70 L 40 70 C 38 80, 36 96, 24 104 Z" fill="${hair}"/>`
      : `<path d="M36 58 C 34 30, 94 30, 92 58 C 86 46, 70 42, 64 44 C 56 42, 42 46, 36 58 Z" fill="${hair}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
<circle cx="64" cy="64" r="64" fill="#1b2130"/>
<path d="M22 128 C 24 96, 104 96, 106 128 Z" fill="${shirt}"/>
<rect x="56" y="84" width="16" height="16" rx="6" fill="${skin}"/>
${gender === 'female' ? hairShape : ''}
<ellipse cx="64" cy="64" rx="27" ry="30" fill="${skin}"/>
${gender === 'male' ? hairShape : `<path d="M38 58 C 40 36, 88 36, 90 58 C 78 50, 60 48, 38 58 Z" fill="${hair}"/>`}
<circle cx="54" cy="66" r="3.5" fill="#2d2d2d"/><circle cx="74" cy="66" r="3.5" fill="#2d2d2d"/>
<path d="M55 79 Q 64 86 73 79" fill="none" stroke="#7a3e2a" stroke-width="3" stroke-linecap="round"/>
</svg>`;
}

function flagFrame(inner: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="32" viewBox="0 0 48 32">
<clipPath id="r"><rect width="48" height="32" rx="4"/></clipPath><g clip-path="url(#r)">${inner}</g></svg>`;
}

function star(cx: number, cy: number, r: number, fill: string): string {
  const points = Array.from({ length: 10 }, (_, k) => {
    const radius = k % 2 === 0 ? r : r * 0.4;
    const angle = -Math.PI / 2 + (k * Math.PI) / 5;
    return `${(cx + radius * Math.cos(angle)).toFixed(2)},${(cy + radius * Math.sin(angle)).toFixed(2)}`;
  }).join(' ');
  return `<polygon points="${points}" fill="${fill}"/>`;
}

/** Flags shown in the language switcher. Traditional Chinese gets a neutral script badge, not a flag. */
export function flag(lang: TLanguage): string {
  switch (lang) {
    case 'en':
      return flagFrame(`<rect width="48" height="32" fill="#012169"/>
<path d="M0 0 L48 32 M48 0 L0 32" stroke="#fff" stroke-width="6"/><path d="M0 0 L48 32 M48 0 L0 32" stroke="#C8102E" stroke-width="2"/>
<path d="M24 0 V32 M0 16 H48" stroke="#fff" stroke-width="10"/><path d="M24 0 V32 M0 16 H48" stroke="#C8102E" stroke-width="6"/>`);
    case 'pt':
      return flagFrame(`<rect width="48" height="32" fill="#009c3b"/><polygon points="24,3 45,16 24,29 3,16" fill="#ffdf00"/>
<circle cx="24" cy="16" r="7.5" fill="#002776"/><path d="M16.8 14.5 Q24 12.5 31.2 17" stroke="#fff" stroke-width="1.4" fill="none"/>`);
    case 'cn':
      return flagFrame(`<rect width="48" height="32" fill="#de2910"/>${star(9, 9, 5.5, '#ffde00')}
${star(17, 4, 1.6, '#ffde00')}${star(20, 8, 1.6, '#ffde00')}${star(20, 13, 1.6, '#ffde00')}${star(17, 17, 1.6, '#ffde00')}`);
    case 'ch':
      return flagFrame(`<rect width="48" height="32" fill="#8b1e2d"/><rect x="4" y="4" width="40" height="24" rx="3" fill="none" stroke="#f5c542" stroke-width="1.5"/>
<text x="24" y="23" text-anchor="middle" font-size="17" font-family="sans-serif" fill="#f5c542">繁</text>`);
    case 'vi':
      return flagFrame(`<rect width="48" height="32" fill="#da251d"/>${star(24, 16, 9, '#ffff00')}`);
    case 'id':
      return flagFrame(
        `<rect width="48" height="16" fill="#ce1126"/><rect y="16" width="48" height="16" fill="#fff"/>`,
      );
    case 'th':
      return flagFrame(`<rect width="48" height="32" fill="#a51931"/><rect y="5.3" width="48" height="21.4" fill="#f4f5f8"/>
<rect y="10.7" width="48" height="10.6" fill="#2d2a4a"/>`);
    case 'msa':
      return flagFrame(`${Array.from({ length: 14 }, (_, k) => `<rect y="${(k * 32) / 14}" width="48" height="${32 / 14}" fill="${k % 2 ? '#fff' : '#cc0001'}"/>`).join('')}
<rect width="24" height="18.3" fill="#010066"/><circle cx="9" cy="9.15" r="6" fill="#fc0"/><circle cx="10.6" cy="9.15" r="5" fill="#010066"/>${star(17.5, 9.15, 4, '#fc0')}`);
  }
}

export const SOCIAL_NETWORKS = ['telegram', 'instagram', 'whatsapp', 'youtube', 'facebook', 'x'] as const;
export type TSocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** Simple geometric marks for the footer links (our drawings, not the networks' official logos). */
export function socialIcon(name: TSocialNetwork): string {
  const glyph: Record<TSocialNetwork, { bg: string; body: string }> = {
    telegram: {
      bg: '#229ed9',
      body: '<path d="M13 31 L49 17 L42 48 L31 39 L26 45 L25 36 L43 22 L22 34 Z" fill="#fff"/>',
    },
    instagram: {
      bg: '#d62976',
      body: '<rect x="17" y="17" width="30" height="30" rx="9" fill="none" stroke="#fff" stroke-width="4"/><circle cx="32" cy="32" r="7" fill="none" stroke="#fff" stroke-width="4"/><circle cx="41" cy="23" r="2.2" fill="#fff"/>',
    },
    whatsapp: {
      bg: '#25d366',
      body: '<path d="M32 15 A17 17 0 1 1 19 43 L15 49 L22 46 A17 17 0 0 0 32 15" fill="none" stroke="#fff" stroke-width="4" stroke-linejoin="round"/><path d="M26 25 C 25 31, 31 39, 38 39 L 40 35 L 36 33 L 34 35 C 31 34, 29 32, 28 29 L 30 27 L 28 23 Z" fill="#fff"/>',
    },
    youtube: {
      bg: '#ff0000',
      body: '<rect x="13" y="20" width="38" height="25" rx="8" fill="#fff"/><polygon points="28,26 28,39 39,32.5" fill="#ff0000"/>',
    },
    facebook: {
      bg: '#1877f2',
      body: '<path d="M35 50 V34 H41 L42 27 H35 V23 C35 21 36 20 38 20 H42 V14 C40 14 38 14 36 14 C31 14 28 17 28 22 V27 H22 V34 H28 V50 Z" fill="#fff"/>',
    },
    x: {
      bg: '#111111',
      body: '<path d="M18 16 H27 L46 48 H37 Z M45 16 L20 48 M19 48 L44 16" stroke="#fff" stroke-width="4" fill="#fff"/>',
    },
  };
  const { bg, body } = glyph[name];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="${bg}"/>${body}</svg>`;
}
