import { describe, expect, it } from 'vitest';
import {
  gamePaint,
  homePaint,
  LOBBY_PRELOADED_TILES,
  LOBBY_SKELETON_TILES,
  lobbyPaint,
  withPreloads,
  withSkeletonPaint,
} from './static-web.ts';

const HTML = `<!doctype html><html><head><title>Sorte</title></head><body><div id="root"><div class="layout" aria-hidden="true"><div class="layout__main"><header class="header"><span class="brand-text">Sorte</span></header><main class="layout__content"><div class="carousel carousel--skeleton"></div></main></div><nav class="bottom-nav"></nav></div></div><script type="module" src="/a.js"></script></body></html>`;

describe('the skeleton paint of index.html', () => {
  it('serves the page as built without a paint', () => {
    expect(withSkeletonPaint(HTML, undefined)).toBe(HTML);
    expect(homePaint(undefined)).toBeUndefined();
    expect(lobbyPaint([])).toBeUndefined();
    expect(gamePaint(undefined)).toBeUndefined();
  });

  it("home: the banner in the carousel's place and announced right after the title", () => {
    const html = withSkeletonPaint(HTML, homePaint('/media/banners/1.svg?v="2"&x'));
    expect(html).toContain(
      '<title>Sorte</title>\n    <link rel="preload" as="image" href="/media/banners/1.svg?v=&quot;2&quot;&amp;x" fetchpriority="high" />',
    );
    expect(html).toContain(
      '<div class="carousel carousel--skeleton"><img src="/media/banners/1.svg?v=&quot;2&quot;&amp;x" alt="" decoding="async" fetchpriority="high" /></div>',
    );
    expect(html).toContain('<header class="header">');
  });

  it('lobby: the first tiles inside the layout, the first ones announced', () => {
    const thumbnails = Array.from({ length: 20 }, (_, index) => `/media/games/g${index}.svg`);
    const html = withSkeletonPaint(HTML, lobbyPaint(thumbnails));
    const painted = [...html.matchAll(/<img src="([^"]+)"/g)].map((match) => match[1]);
    expect(painted).toEqual(thumbnails.slice(0, LOBBY_SKELETON_TILES));
    const announced = [...html.matchAll(/rel="preload" as="image" href="([^"]+)"/g)].map((match) => match[1]);
    expect(announced).toEqual(thumbnails.slice(0, LOBBY_PRELOADED_TILES));
    expect(html).toContain('<main class="layout__content"><div class="skeleton-tiles">');
    expect(html).not.toContain('carousel--skeleton');
  });

  it("a game's page: its artwork instead of the whole layout, the script kept", () => {
    const html = withSkeletonPaint(HTML, gamePaint('/media/games/dice-banner.svg'));
    expect(html).toContain('<div id="root"><div class="skeleton-game" aria-hidden="true">');
    expect(html).not.toContain('layout__main');
    expect(html).not.toContain('bottom-nav');
    expect(html).toContain('<script type="module" src="/a.js"></script>');
  });
});

describe("a landing page's own chunks in its head", () => {
  it('announces the scripts as module preloads and the styles as preloads, at the end of the head', () => {
    const html = withPreloads(HTML, {
      scripts: ['/assets/home-route-1.js', '/assets/games-2.js'],
      styles: ['/assets/games-3.css'],
    });
    const head = html.slice(0, html.indexOf('</head>'));
    expect(
      [...head.matchAll(/<link rel="([^"]+)"[^>]*href="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`),
    ).toEqual([
      'modulepreload /assets/home-route-1.js',
      'modulepreload /assets/games-2.js',
      'preload /assets/games-3.css',
    ]);
    expect(head).toContain('<link rel="preload" as="style" crossorigin href="/assets/games-3.css">');
    expect(html.slice(html.indexOf('</head>'))).toBe(HTML.slice(HTML.indexOf('</head>')));
  });

  it('leaves the page as built when the build lists nothing for it', () => {
    expect(withPreloads(HTML, undefined)).toBe(HTML);
    expect(withPreloads(HTML, { scripts: [], styles: [] })).toBe(HTML);
  });
});
