import { LANGUAGE_TAGS, type TLanguage } from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import type { TSite } from '../../core/site.ts';

/**
 * The web app manifest of the site the host names, in the reader's language (?lang=, else the
 * request's language): the site's own name and colours, the language, shortcuts to what players
 * open most, and screenshots for the install sheet. Before, one static manifest named every site
 * "Sorte", in English, with a theme colour the page did not have.
 */

type TManifestText = { description: string; deposit: string; games: string; crash: string; withdraw: string };

const TEXT: Record<TLanguage, TManifestText> = {
  en: {
    description: 'Casino, live games and crash, with deposits and withdrawals by PIX',
    deposit: 'Deposit',
    games: 'Games',
    crash: 'Crash',
    withdraw: 'Withdraw',
  },
  pt: {
    description: 'Cassino, jogos ao vivo e crash, com depósitos e saques por PIX',
    deposit: 'Depositar',
    games: 'Jogos',
    crash: 'Crash',
    withdraw: 'Sacar',
  },
  cn: {
    description: '娱乐场、真人游戏与 Crash，支持 PIX 充值与提款',
    deposit: '充值',
    games: '游戏',
    crash: 'Crash',
    withdraw: '提款',
  },
  ch: {
    description: '娛樂場、真人遊戲與 Crash，支援 PIX 儲值與提款',
    deposit: '儲值',
    games: '遊戲',
    crash: 'Crash',
    withdraw: '提款',
  },
  vi: {
    description: 'Casino, trò chơi trực tiếp và crash, nạp và rút tiền qua PIX',
    deposit: 'Nạp tiền',
    games: 'Trò chơi',
    crash: 'Crash',
    withdraw: 'Rút tiền',
  },
  id: {
    description: 'Kasino, game langsung dan crash, setor dan tarik lewat PIX',
    deposit: 'Setor',
    games: 'Game',
    crash: 'Crash',
    withdraw: 'Tarik',
  },
  th: {
    description: 'คาสิโน เกมสด และ crash ฝากถอนผ่าน PIX',
    deposit: 'ฝากเงิน',
    games: 'เกม',
    crash: 'Crash',
    withdraw: 'ถอนเงิน',
  },
  msa: {
    description: 'Kasino, permainan langsung dan crash, deposit dan pengeluaran melalui PIX',
    deposit: 'Deposit',
    games: 'Permainan',
    crash: 'Crash',
    withdraw: 'Pengeluaran',
  },
};

const COLOUR = /^#[0-9a-fA-F]{3,8}$/;

export function siteManifest(site: Pick<TSite, 'name' | 'theme' | 'favicon'>, lang: TLanguage) {
  const text = TEXT[lang];
  const background = COLOUR.test(site.theme['--color-bg'] ?? '') ? site.theme['--color-bg']! : '#0b0f1a';
  return {
    id: '/',
    name: site.name,
    short_name: site.name.slice(0, 12),
    description: text.description,
    lang: LANGUAGE_TAGS[lang],
    dir: 'ltr',
    start_url: '/?source=pwa',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    background_color: background,
    theme_color: background,
    categories: ['games', 'entertainment'],
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
    shortcuts: [
      { name: text.deposit, short_name: text.deposit, url: '/recharge?source=pwa' },
      { name: text.games, short_name: text.games, url: '/game?source=pwa' },
      { name: text.crash, short_name: text.crash, url: '/originals/crash?source=pwa' },
      { name: text.withdraw, short_name: text.withdraw, url: '/withdraw?source=pwa' },
    ].map((shortcut) => ({
      ...shortcut,
      icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
    })),
    screenshots: [
      {
        src: '/screenshots/home-narrow.jpg',
        sizes: '390x844',
        type: 'image/jpeg',
        form_factor: 'narrow',
        label: site.name,
      },
      {
        src: '/screenshots/home-wide.jpg',
        sizes: '1440x900',
        type: 'image/jpeg',
        form_factor: 'wide',
        label: site.name,
      },
    ],
  };
}

/** GET /manifest.webmanifest?lang= — registered before the static files, so it wins over the built one. */
export async function manifestRoutes(app: FastifyInstance) {
  app.get('/manifest.webmanifest', { schema: { hide: true } }, async (request, reply) => {
    return reply
      .type('application/manifest+json; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'host')
      .send(JSON.stringify(siteManifest(request.site, request.lang)));
  });
}
