import type { TIconName } from '../../components/icon.tsx';

export interface TNavItem {
  to: string;
  labelKey: string;
  icon: TIconName;
}

/** The five tabs of the phone's bottom bar. */
export const BOTTOM_NAV: readonly TNavItem[] = [
  { to: '/', labelKey: 'nav.home', icon: 'home' },
  { to: '/game', labelKey: 'nav.games', icon: 'game' },
  { to: '/recharge', labelKey: 'nav.deposit', icon: 'wallet' },
  { to: '/promotion/activity', labelKey: 'nav.promotions', icon: 'gift' },
  { to: '/profile', labelKey: 'nav.profile', icon: 'user' },
];

/** The desktop side menu, grouped. */
export const SIDE_MENU: readonly { titleKey: string; items: readonly TNavItem[] }[] = [
  {
    titleKey: 'menu.play',
    items: [
      { to: '/', labelKey: 'nav.home', icon: 'home' },
      { to: '/game', labelKey: 'nav.games', icon: 'game' },
      { to: '/sports', labelKey: 'sports.title', icon: 'ball' },
      { to: '/video', labelKey: 'pages.video', icon: 'video' },
      { to: '/searchGames', labelKey: 'pages.search_games', icon: 'search' },
      { to: '/game-record', labelKey: 'lobby.record.title', icon: 'list' },
      { to: '/fairness', labelKey: 'lobby.fair.title', icon: 'shield' },
    ],
  },
  {
    titleKey: 'menu.wallet',
    items: [
      { to: '/recharge', labelKey: 'nav.deposit', icon: 'wallet' },
      { to: '/withdraw', labelKey: 'pages.withdraw', icon: 'bank' },
      { to: '/order-center', labelKey: 'pages.order_center', icon: 'list' },
    ],
  },
  {
    titleKey: 'menu.rewards',
    items: [
      { to: '/promotion/activity', labelKey: 'nav.promotions', icon: 'gift' },
      { to: '/promotion/vip', labelKey: 'pages.promotion_vip', icon: 'crown' },
      { to: '/promotion/rebates', labelKey: 'pages.promotion_rebates', icon: 'refresh' },
      { to: '/agency-center/invite', labelKey: 'pages.agency_invite', icon: 'share' },
    ],
  },
  {
    titleKey: 'menu.account',
    items: [
      { to: '/profile', labelKey: 'nav.profile', icon: 'user' },
      { to: '/security-center', labelKey: 'pages.security_center', icon: 'shield' },
      { to: '/notification', labelKey: 'pages.notification', icon: 'bell' },
      { to: '/information-center/support', labelKey: 'pages.support', icon: 'headset' },
    ],
  },
];
