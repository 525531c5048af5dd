import { LANGUAGES, type TLanguage } from '@sorte/contract';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { operators } from '../modules/admin/admin.schema.ts';
import { verifyAsRequired } from '../modules/kyc/kyc.service.ts';
import { AVATAR_COUNT, type TBannerDesign } from '../modules/media/artwork.ts';
import { DEFAULT_AVATAR_ID } from '../modules/members/members.repo.ts';
import { members, profilePictures } from '../modules/members/members.schema.ts';
import { hashSecret } from '../modules/sessions/passwords.ts';
import { siteBanners, siteDomains, siteSocialLinks, sites } from '../modules/sites/sites.schema.ts';
import { seedSports } from '../modules/sports/sports.feed.ts';
import { openMemberAccounts } from '../modules/wallet/accounts.ts';

/** The game categories of spec §1, in tab order. */
export const CATEGORIES = [
  'slots',
  'live',
  'arcade',
  'crash',
  'fish',
  'bingo',
  'card',
  'lottery',
  'sports',
  'video',
];

/** Where each demo banner leads: its button (the campaign it advertises, deposit, live casino, the crash game). */
const BANNER_LINKS: Record<TBannerDesign, string> = {
  welcome: '/promotion/activity/recharge',
  pix: '/recharge',
  live: '/video',
  crash: '/originals/crash',
};

/** The campaign a banner advertises: shown only on a site where it is on (migration 0021). */
const BANNER_CAMPAIGNS: Partial<Record<TBannerDesign, string>> = { welcome: 'ftd' };

const BANNER_TITLES: Record<TBannerDesign, Record<TLanguage, string>> = {
  welcome: {
    en: 'Welcome bonus on your first deposit',
    pt: 'Bônus de boas-vindas no primeiro depósito',
    cn: '首充迎新奖金',
    ch: '首儲迎新獎金',
    vi: 'Thưởng chào mừng cho lần nạp đầu tiên',
    id: 'Bonus sambutan untuk deposit pertama',
    th: 'โบนัสต้อนรับสำหรับการฝากครั้งแรก',
    msa: 'Bonus alu-aluan untuk deposit pertama',
  },
  live: {
    en: 'Live casino tables, open all night',
    pt: 'Mesas de cassino ao vivo a noite toda',
    cn: '真人娱乐场，通宵开放',
    ch: '真人娛樂場，通宵開放',
    vi: 'Sòng bài trực tiếp mở cửa suốt đêm',
    id: 'Meja kasino langsung, buka sepanjang malam',
    th: 'คาสิโนสด เปิดตลอดคืน',
    msa: 'Meja kasino langsung, dibuka sepanjang malam',
  },
  crash: {
    en: 'Crash: cash out before the rocket flies away',
    pt: 'Crash: saque antes que o foguete voe para longe',
    cn: '火箭游戏：在火箭飞走前兑现',
    ch: '火箭遊戲：在火箭飛走前兌現',
    vi: 'Crash: rút tiền trước khi tên lửa bay mất',
    id: 'Crash: tarik sebelum roket terbang menjauh',
    th: 'Crash: ถอนเงินก่อนจรวดจะบินหายไป',
    msa: 'Crash: tunaikan sebelum roket terbang pergi',
  },
  pix: {
    en: 'Deposit and withdraw in seconds with PIX',
    pt: 'Deposite e saque em segundos com PIX',
    cn: '使用PIX秒速存取款',
    ch: '使用PIX秒速存提款',
    vi: 'Nạp và rút tiền trong vài giây với PIX',
    id: 'Deposit dan tarik dalam hitungan detik dengan PIX',
    th: 'ฝากและถอนภายในไม่กี่วินาทีด้วย PIX',
    msa: 'Deposit dan keluarkan wang dalam beberapa saat dengan PIX',
  },
};

type TDemoSite = {
  code: string;
  name: string;
  jurisdiction: 'intl' | 'br';
  defaultLang: TLanguage;
  hosts: string[];
  theme: Record<string, string>;
  banners: TBannerDesign[];
  social: { name: string; url: string }[];
  sessionIdleMinutes: number;
};

const BASE_THEME = {
  '--color-bg': '#0b0f17',
  '--color-surface': '#141a26',
  '--color-surface-2': '#1c2433',
  '--color-border': '#283246',
  '--color-text': '#e8ecf4',
  '--color-text-muted': '#98a2b8',
  '--color-gold': '#f5c542',
  '--color-danger': '#ff5d5d',
  '--color-success': '#2fd08b',
  '--radius': '12px',
  '--font-family': "system-ui, 'Segoe UI', Roboto, sans-serif",
};

export const DEMO_SITES: TDemoSite[] = [
  {
    code: 'sorte',
    name: 'Sorte',
    jurisdiction: 'intl',
    defaultLang: 'en',
    hosts: ['localhost', '127.0.0.1'],
    theme: { ...BASE_THEME, '--color-accent': '#19c37d', '--color-accent-contrast': '#04140c' },
    // The intl profile allows the spec's promotions as written, so it advertises the welcome bonus.
    banners: ['welcome', 'live', 'crash'],
    social: [
      { name: 'telegram', url: 'https://t.me/sorte_casino' },
      { name: 'instagram', url: 'https://www.instagram.com/sorte.casino' },
      { name: 'whatsapp', url: 'https://wa.me/5511900000001' },
      { name: 'youtube', url: 'https://www.youtube.com/@sortecasino' },
    ],
    sessionIdleMinutes: 24 * 60,
  },
  {
    code: 'sorte-br',
    name: 'Sorte Brasil',
    jurisdiction: 'br',
    defaultLang: 'pt',
    hosts: ['br.localhost'],
    theme: {
      ...BASE_THEME,
      '--color-bg': '#07120d',
      '--color-surface': '#0f1f17',
      '--color-surface-2': '#163024',
      '--color-accent': '#ffcc29',
      '--color-accent-contrast': '#1a1400',
      '--color-gold': '#2fd08b',
    },
    // Brazilian rules forbid advertising pre-bet bonuses: PIX instead of the welcome offer.
    banners: ['pix', 'live', 'crash'],
    social: [
      { name: 'telegram', url: 'https://t.me/sorte_brasil' },
      { name: 'instagram', url: 'https://www.instagram.com/sorte.brasil' },
      { name: 'whatsapp', url: 'https://wa.me/5511900000002' },
      { name: 'youtube', url: 'https://www.youtube.com/@sortebrasil' },
    ],
    // Regulated inactivity logout (architecture §5).
    sessionIdleMinutes: 30,
  },
];

/** Demo accounts, documented in the README: the same on every demo site. */
export const DEMO_PLAYER = { username: 'demo01', password: 'demo123', qkPwd: '123456' };
/**
 * The demo back-office owner of every demo site (README): password and the authenticator secret to
 * add to an authenticator app (or compute codes from in tests). Never seeded in production.
 */
export const DEMO_OPERATOR = {
  username: 'admin',
  password: 'sorte-admin-2026',
  totpSecret: 'SORTEDEMOADMINTOTPSECRETKEYABCDE',
};
const DEMO_INVITE_CODES: Record<string, string> = { sorte: 'DEMO0001', 'sorte-br': 'DEMOBR01' };

/**
 * Creates the demo sites, avatars, players and operators when missing. Idempotent and safe to run
 * from several processes at once (every insert tolerates an existing row); never overwrites data an
 * operator has since changed.
 */
export async function seedDemoData(executor: Executor): Promise<void> {
  for (const gender of ['male', 'female'] as const) {
    for (let i = 1; i <= AVATAR_COUNT; i += 1) {
      await executor
        .insert(profilePictures)
        .values({ gender, url: `/media/avatars/${gender}-${i}.svg`, position: i })
        .onConflictDoNothing();
    }
  }

  for (const demo of DEMO_SITES) {
    await executor
      .insert(sites)
      .values({
        code: demo.code,
        name: demo.name,
        jurisdiction: demo.jurisdiction,
        defaultLang: demo.defaultLang,
        languages: [demo.defaultLang, ...LANGUAGES.filter((code) => code !== demo.defaultLang)],
        logo: `/media/sites/${demo.code}/logo.svg`,
        favicon: `/media/sites/${demo.code}/favicon.svg`,
        theme: demo.theme,
        backgroundVideo: null,
        telegramLink: demo.social.find((link) => link.name === 'telegram')?.url ?? null,
        minAge: 18,
        categories: CATEGORIES,
        sessionIdleMinutes: demo.sessionIdleMinutes,
        status: 1,
      })
      .onConflictDoNothing();
    const [site] = await executor.select().from(sites).where(eq(sites.code, demo.code)).limit(1);
    if (!site) throw new Error(`seed: site ${demo.code} missing after insert`);

    for (const host of demo.hosts) {
      await executor.insert(siteDomains).values({ host, siteId: site.id }).onConflictDoNothing();
    }
    for (const [position, design] of demo.banners.entries()) {
      // Each banner leads somewhere, with a button saying where (issue 14).
      await executor
        .insert(siteBanners)
        .values({
          siteId: site.id,
          position,
          image: `/media/sites/${demo.code}/banners/${design}.svg`,
          title: BANNER_TITLES[design],
          link: BANNER_LINKS[design],
          campaignCode: BANNER_CAMPAIGNS[design] ?? null,
        })
        .onConflictDoNothing();
    }
    for (const [position, link] of demo.social.entries()) {
      await executor
        .insert(siteSocialLinks)
        .values({ siteId: site.id, name: link.name, url: link.url, position })
        .onConflictDoNothing();
    }

    const [player] = await executor
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.siteId, site.id), eq(members.usernameLower, DEMO_PLAYER.username)))
      .limit(1);
    if (!player) {
      await executor
        .insert(members)
        .values({
          siteId: site.id,
          username: DEMO_PLAYER.username,
          passwordHash: await hashSecret(DEMO_PLAYER.password),
          qkPwdHash: await hashSecret(DEMO_PLAYER.qkPwd),
          realname: 'Demo Player',
          phone: '+5511987654321',
          inviteCode: DEMO_INVITE_CODES[demo.code]!,
          lang: demo.defaultLang,
          profilePictureId: DEFAULT_AVATAR_ID,
        })
        .onConflictDoNothing();
    }
    const [demo01] = await executor
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.siteId, site.id), eq(members.usernameLower, DEMO_PLAYER.username)))
      .limit(1);
    // Idempotent: a restart (or a second process seeding at once) finds the accounts already open.
    if (demo01) {
      await openMemberAccounts(executor, { siteId: site.id, memberId: demo01.id });
      // The demo player stays usable where the site requires identity checks (br: before any
      // deposit or bet): seeded as having passed what the site's KYC rules require.
      await verifyAsRequired(executor, site, demo01.id, 'seed');
    }

    const [operator] = await executor
      .select({ id: operators.id, totpSecret: operators.totpSecret })
      .from(operators)
      .where(and(eq(operators.siteId, site.id), eq(operators.usernameLower, DEMO_OPERATOR.username)))
      .limit(1);
    if (!operator) {
      await executor
        .insert(operators)
        .values({
          siteId: site.id,
          username: DEMO_OPERATOR.username,
          passwordHash: await hashSecret(DEMO_OPERATOR.password),
          role: 'owner',
          status: 1,
          totpSecret: DEMO_OPERATOR.totpSecret,
        })
        .onConflictDoNothing();
    } else if (!operator.totpSecret) {
      // A demo database from before TOTP was required: the demo owner gets the documented secret.
      await executor
        .update(operators)
        .set({ totpSecret: DEMO_OPERATOR.totpSecret })
        .where(eq(operators.id, operator.id));
    }
  }
  // The sportsbook: a real season's fixtures and results (openfootball), upcoming rounds ahead of now.
  await seedSports(executor);
}
