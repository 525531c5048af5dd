import { LANGUAGES } from '@sorte/contract';
import { describe, expect, it } from 'vitest';
import {
  AVATAR_COUNT,
  avatar,
  BANNER_DESIGNS,
  banner,
  flag,
  SOCIAL_NETWORKS,
  safeColor,
  siteLogo,
  socialIcon,
} from './artwork.ts';

const palette = { accent: '#19c37d', accent2: '#f5c542', background: '#0b0f17' };

/** A cheap well-formedness check: one root svg element and balanced tags. */
function assertSvg(svg: string) {
  expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  expect(svg.trim().endsWith('</svg>')).toBe(true);
  const opened = (svg.match(/<([a-zA-Z]+)[\s>]/g) ?? []).length;
  const closed = (svg.match(/<\/[a-zA-Z]+>/g) ?? []).length + (svg.match(/\/>/g) ?? []).length;
  expect(closed).toBe(opened);
}

describe('artwork', () => {
  it('draws every banner, avatar, flag and icon as well-formed SVG', () => {
    for (const design of BANNER_DESIGNS) assertSvg(banner(design, palette));
    for (let i = 1; i <= AVATAR_COUNT; i += 1) {
      assertSvg(avatar('male', i));
      assertSvg(avatar('female', i));
    }
    for (const lang of LANGUAGES) assertSvg(flag(lang));
    for (const name of SOCIAL_NETWORKS) assertSvg(socialIcon(name));
  });

  it('escapes the site name in the logo and ignores colours that are not colours', () => {
    const logo = siteLogo('<script>x</script>', palette);
    expect(logo).not.toContain('<script>');
    expect(logo).toContain('&lt;script&gt;');
    expect(safeColor('red;"><script>', '#000')).toBe('#000');
    expect(safeColor('#abcdef', '#000')).toBe('#abcdef');
  });

  it('widens the logo canvas for longer site names so the name is never cut off', () => {
    const widthOf = (svg: string) => Number(/viewBox="0 0 (\d+) 64"/.exec(svg)?.[1]);
    const short = widthOf(siteLogo('Sorte', palette));
    const long = widthOf(siteLogo('Sorte Brasil', palette));
    expect(long).toBeGreaterThan(short);
    // 12 characters of bold 30 px text plus the 64 px clover need well over 240 px.
    expect(long).toBeGreaterThanOrEqual(64 + 12 * 18);
  });

  it('draws different avatars for different indexes', () => {
    expect(new Set(Array.from({ length: AVATAR_COUNT }, (_, i) => avatar('female', i + 1))).size).toBe(
      AVATAR_COUNT,
    );
  });
});
