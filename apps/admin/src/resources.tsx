import type { TPermission } from '@sorte/contract';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * The back office's screens. Each one is a page file under src/pages (lazy-loaded) registered here
 * with ONE line: its route path (under /admin), the permission that opens it (the sidebar hides it
 * from other roles; the server checks again), the sidebar group, a label key in src/locales/*.json
 * and an icon (a short glyph). Order here is the order in the sidebar.
 */
export type TAdminResource = {
  /** Resource name (Refine) and the default API path /api/admin/<name>. */
  name: string;
  path: string;
  permission: TPermission;
  group: 'overview' | 'players' | 'money' | 'content' | 'settings';
  label: string;
  icon: string;
  page: LazyExoticComponent<ComponentType>;
};

// biome-ignore format: one line per screen, so each screen's registration is one line.
export const RESOURCES: TAdminResource[] = [
  { name: 'dashboard', path: 'dashboard', permission: 'dashboard.read', group: 'overview', label: 'nav.dashboard', icon: '▦', page: lazy(() => import('./pages/dashboard.tsx')) },
  { name: 'players', path: 'players', permission: 'players.read', group: 'players', label: 'nav.players', icon: '☺', page: lazy(() => import('./pages/players.tsx')) },
  { name: 'kyc-reviews', path: 'kyc-reviews', permission: 'players.read', group: 'players', label: 'nav.kyc_reviews', icon: '⊡', page: lazy(() => import('./pages/kyc-reviews.tsx')) },
  { name: 'withdrawals', path: 'withdrawals', permission: 'withdrawals.read', group: 'money', label: 'nav.withdrawals', icon: '⇅', page: lazy(() => import('./pages/withdrawals.tsx')) },
  { name: 'reconciliation', path: 'reconciliation', permission: 'finance.reports', group: 'money', label: 'nav.reconciliation', icon: '⚖', page: lazy(() => import('./pages/reconciliation.tsx')) },
  { name: 'compliance', path: 'compliance', permission: 'compliance.read', group: 'players', label: 'nav.compliance', icon: '⚑', page: lazy(() => import('./pages/compliance.tsx')) },
  { name: 'regulator', path: 'regulator', permission: 'finance.reports', group: 'money', label: 'nav.regulator', icon: '⎙', page: lazy(() => import('./pages/regulator.tsx')) },
  { name: 'crash-chains', path: 'crash-chains', permission: 'fairness.read', group: 'settings', label: 'nav.crash_chains', icon: '◎', page: lazy(() => import('./pages/crash-chains.tsx')) },
  { name: 'certification', path: 'certification', permission: 'fairness.read', group: 'settings', label: 'nav.certification', icon: '✓', page: lazy(() => import('./pages/certification.tsx')) },
  { name: 'mail-outbox', path: 'mail-outbox', permission: 'mail.read', group: 'settings', label: 'nav.mail_outbox', icon: '✉', page: lazy(() => import('./pages/mail-outbox.tsx')) },
  { name: 'games', path: 'games', permission: 'games.manage', group: 'content', label: 'nav.games', icon: '▦', page: lazy(() => import('./pages/games.tsx')) },
  { name: 'promotions', path: 'promotions', permission: 'promotions.manage', group: 'content', label: 'nav.promotions', icon: '★', page: lazy(() => import('./pages/promotions.tsx')) },
  { name: 'commission', path: 'commission', permission: 'agency.manage', group: 'content', label: 'nav.commission', icon: '⚯', page: lazy(() => import('./pages/commission.tsx')) },
  { name: 'announcements', path: 'announcements', permission: 'content.manage', group: 'content', label: 'nav.announcements', icon: '✉', page: lazy(() => import('./pages/announcements.tsx')) },
  { name: 'chat', path: 'chat', permission: 'chat.moderate', group: 'content', label: 'nav.chat', icon: '☏', page: lazy(() => import('./pages/chat.tsx')) },
  { name: 'sports', path: 'sports', permission: 'games.manage', group: 'content', label: 'nav.sports', icon: '⚽', page: lazy(() => import('./pages/sports.tsx')) },
  { name: 'site', path: 'site', permission: 'sites.manage', group: 'settings', label: 'nav.site', icon: '⚙', page: lazy(() => import('./pages/site.tsx')) },
  { name: 'operators', path: 'operators', permission: 'operators.manage', group: 'settings', label: 'nav.operators', icon: '◈', page: lazy(() => import('./pages/operators.tsx')) },
  { name: 'audit', path: 'audit', permission: 'audit.read', group: 'settings', label: 'nav.audit', icon: '☰', page: lazy(() => import('./pages/audit.tsx')) },
];

export const GROUPS: TAdminResource['group'][] = ['overview', 'players', 'money', 'content', 'settings'];
