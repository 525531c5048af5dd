import { type ComponentType, lazy, type ReactElement } from 'react';
import { ORIGINAL_CODES } from '../features/originals/original-codes.ts';

/**
 * Every route of spec §2. Each page is its own chunk (React.lazy), so the home route downloads only
 * the shell and the home page.
 */
const HomePage = lazy(() => import('./pages/home-route.tsx'));
const ProfilePage = lazy(() => import('./pages/profile-route.tsx'));
const LoginPage = lazy(() => import('./pages/login-route.tsx'));
const GameInfoPage = lazy(() => import('../features/originals/components/game-info-page.tsx'));
const CashierPage = lazy(() => import('./pages/cashier-route.tsx'));
const DownloadPage = lazy(() => import('./pages/download-route.tsx'));
const DiagnosticsPage = lazy(() => import('./pages/diagnostics-route.tsx'));
const SupportPage = lazy(() => import('./pages/support-route.tsx'));
// Games (issue 4): the lobby, the game screens, the game record and the fairness page.
// The lobby with the sportsbook's way in above its sports category (the app composes the two).
const GamesPage = lazy(() => import('./pages/games-route.tsx'));
const VideoPage = lazy(() =>
  import('../features/lobby/components/lobby-page.tsx').then((module) => ({ default: module.VideoRoute })),
);
const SearchGamesPage = lazy(() =>
  import('../features/lobby/components/lobby-page.tsx').then((module) => ({ default: module.SearchRoute })),
);
const OriginalGamePage = lazy(() =>
  import('../features/originals/components/original-game-page.tsx').then((module) => ({
    default: module.OriginalGamePage,
  })),
);
// Third-party games: the provider's page framed under Sorte's bar (/play?game=<code>).
const ThirdPartyPage = lazy(() => import('../features/third-party/components/third-party-page.tsx'));
const GameRecordPage = lazy(() => import('../features/game-record/components/game-record-page.tsx'));
const FairnessPage = lazy(() => import('../features/fairness/components/fairness-page.tsx'));
export const NotFoundPage = lazy(() => import('./pages/not-found-route.tsx'));
// Sportsbook (issue 17): the sports home, one match's markets and the player's bets.
const SportsHomePage = lazy(() => import('../features/sports/components/sports-home-page.tsx'));
const SportsEventPage = lazy(() => import('../features/sports/components/event-page.tsx'));
const SportsMyBetsPage = lazy(() => import('../features/sports/components/my-bets-page.tsx'));
// Money pages (issue 3): each feature's page module is its own chunk.
const RechargePage = lazy(() => import('../features/recharge/components/recharge-page.tsx'));
const RechargePaymentPage = lazy(() => import('../features/recharge/components/recharge-payment-page.tsx'));
const RechargeRecordPage = lazy(() => import('../features/records/components/recharge-record-page.tsx'));
const WithdrawPage = lazy(() => import('../features/withdraw/components/withdraw-page.tsx'));
const WithdrawalRecordPage = lazy(() => import('../features/records/components/withdrawal-record-page.tsx'));
const TransactionRecordPage = lazy(
  () => import('../features/records/components/transaction-record-page.tsx'),
);
const BankCardsPage = lazy(() => import('../features/bank-cards/components/bank-cards-page.tsx'));
// Security centre and responsible gaming (issue 13).
const SecurityCenterPage = lazy(() => import('../features/security/components/security-center-page.tsx'));
const ChangePasswordPage = lazy(() => import('../features/security/components/change-password-page.tsx'));
const VerifyPasswordPage = lazy(() => import('../features/security/components/verify-password-page.tsx'));
const BindEmailPage = lazy(() => import('../features/security/components/bind-email-page.tsx'));
const ResponsibleGamingPage = lazy(
  () => import('../features/security/components/responsible-gaming-page.tsx'),
);
// Information centre and agency centre (issue 12).
const NotificationPage = lazy(() => import('../features/information/components/notification-page.tsx'));
const AnnouncementPage = lazy(() => import('../features/information/components/announcement-page.tsx'));
const agencyPage = (name: keyof typeof import('../features/agency/components/agency-pages.tsx')) =>
  lazy(() =>
    import('../features/agency/components/agency-pages.tsx').then((module) => ({
      default: module[name] as ComponentType,
    })),
  );
const InvitePage = agencyPage('InvitePage');
const AgentPage = agencyPage('AgentPage');
const InvitationRecordPage = agencyPage('InvitationRecordPage');
const RewardPage = agencyPage('RewardPage');
const MechanismPage = agencyPage('MechanismPage');
const RegisterSubordinatesPage = agencyPage('RegisterSubordinatesPage');
const OrderCenterPage = lazy(() => import('../features/order-center/components/order-center-page.tsx'));
const OrderFeePage = lazy(() => import('../features/order-center/components/order-fee-page.tsx'));
const OrderAssociationPage = lazy(
  () => import('../features/order-center/components/order-association-page.tsx'),
);

// Promotions, VIP and rebates (issue 11): one chunk for the section.
const PromoActivityPage = lazy(() =>
  import('../features/promotions/components/promotions-pages.tsx').then((m) => ({ default: m.ActivityPage })),
);
const PromoRebatesPage = lazy(() =>
  import('../features/promotions/components/promotions-pages.tsx').then((m) => ({ default: m.RebatesPage })),
);
const PromoVipPage = lazy(() =>
  import('../features/promotions/components/promotions-pages.tsx').then((m) => ({ default: m.VipPage })),
);
const PromoHistoryPage = lazy(() =>
  import('../features/promotions/components/promotions-pages.tsx').then((m) => ({ default: m.HistoryPage })),
);
const PromoCoverPage = lazy(() =>
  import('../features/promotions/components/promotions-pages.tsx').then((m) => ({ default: m.CoverPage })),
);
const PromoRechargePage = lazy(() =>
  import('../features/promotions/components/promotions-pages.tsx').then((m) => ({
    default: m.RechargeActivityPage,
  })),
);
const PromoInvitationPage = lazy(() =>
  import('../features/promotions/components/promotions-pages.tsx').then((m) => ({
    default: m.InvitationActivityPage,
  })),
);
const PromoLotteryWheelPage = lazy(() =>
  import('../features/promotions/components/promotions-pages.tsx').then((m) => ({
    default: m.LotteryWheelPage,
  })),
);
const PromoReliefFundPage = lazy(() =>
  import('../features/promotions/components/promotions-pages.tsx').then((m) => ({
    default: m.ReliefFundPage,
  })),
);
const PromoRechargeRebatePage = lazy(() =>
  import('../features/promotions/components/promotions-pages.tsx').then((m) => ({
    default: m.RechargeRebatePage,
  })),
);
const PromoDailyCashbackPage = lazy(() =>
  import('../features/promotions/components/promotions-pages.tsx').then((m) => ({
    default: m.DailyCashbackPage,
  })),
);

export interface TRoute {
  path: string;
  /** Inside the index layout (header, navigation, footer) or a bare full-screen page. */
  layout: boolean;
  element: ReactElement;
}

const page = (Component: ComponentType): ReactElement => <Component />;

/** One page of a centre: its name, its component, and whether only the centre's path form exists. */
type TCentrePage = readonly [name: string, Component: ComponentType, forms?: 'centre-only'];

/**
 * A centre's pages. Spec §2 lists them as the centre's children in a short form
 * ("Security center: /security-center, /verify-password, ..."), so each one answers both under the
 * centre (/security-center/verify-password) and at the short path, with the same page. The spec
 * writes a few (support, invite) only under their centre: those have no short form.
 */
function centrePages(centre: string, pages: readonly TCentrePage[]): TRoute[] {
  return pages.flatMap(([name, Component, forms]) => [
    { path: `/${centre}/${name}`, layout: true, element: page(Component) },
    ...(forms === 'centre-only' ? [] : [{ path: `/${name}`, layout: true, element: page(Component) }]),
  ]);
}

export const ROUTES: readonly TRoute[] = [
  { path: '/', layout: true, element: page(HomePage) },
  { path: '/profile', layout: true, element: page(ProfilePage) },
  { path: '/game', layout: true, element: page(GamesPage) },
  { path: '/video', layout: true, element: page(VideoPage) },
  { path: '/login', layout: true, element: page(LoginPage) },
  { path: '/searchGames', layout: true, element: page(SearchGamesPage) },
  { path: '/recharge', layout: true, element: page(RechargePage) },
  { path: '/rechargeRecord', layout: true, element: page(RechargeRecordPage) },
  { path: '/recharge-payment', layout: true, element: page(RechargePaymentPage) },
  { path: '/withdraw', layout: true, element: page(WithdrawPage) },
  { path: '/withdrawalRecord', layout: true, element: page(WithdrawalRecordPage) },
  // Screens the spec implies without naming a route (§2): bank card add, transaction record.
  { path: '/bank-card/add', layout: true, element: page(BankCardsPage) },
  { path: '/transactions', layout: true, element: page(TransactionRecordPage) },
  {
    path: '/promotion/activity',
    layout: true,
    element: page(PromoActivityPage),
  },
  {
    path: '/promotion/rebates',
    layout: true,
    element: page(PromoRebatesPage),
  },
  { path: '/promotion/vip', layout: true, element: page(PromoVipPage) },
  {
    path: '/promotion/history',
    layout: true,
    element: page(PromoHistoryPage),
  },
  {
    path: '/promotion/cover',
    layout: true,
    element: page(PromoCoverPage),
  },
  {
    path: '/promotion/activity/recharge',
    layout: true,
    element: page(PromoRechargePage),
  },
  {
    path: '/promotion/activity/invitation-activity',
    layout: true,
    element: page(PromoInvitationPage),
  },
  {
    path: '/promotion/activity/lottery-wheel',
    layout: true,
    element: page(PromoLotteryWheelPage),
  },
  {
    path: '/promotion/activity/daily-loss-relief-fund',
    layout: true,
    element: page(PromoReliefFundPage),
  },
  {
    path: '/promotion/activity/recharge-rebate',
    layout: true,
    element: page(PromoRechargeRebatePage),
  },
  { path: '/promotion/activity/daily-cashback', layout: true, element: page(PromoDailyCashbackPage) },
  ...centrePages('information-center', [
    ['support', SupportPage, 'centre-only'],
    ['notification', NotificationPage],
    ['announcement', AnnouncementPage],
  ]),
  ...centrePages('agency-center', [
    ['invite', InvitePage, 'centre-only'],
    ['agent', AgentPage],
    ['invitation-record', InvitationRecordPage],
    ['reward', RewardPage],
    ['agency-mechanism', MechanismPage],
    ['register-subordinates', RegisterSubordinatesPage],
  ]),
  { path: '/order-center', layout: true, element: page(OrderCenterPage) },
  { path: '/order-center/fee', layout: true, element: page(OrderFeePage) },
  { path: '/order-center/association', layout: true, element: page(OrderAssociationPage) },
  { path: '/security-center', layout: true, element: page(SecurityCenterPage) },
  ...centrePages('security-center', [
    ['verify-password', VerifyPasswordPage],
    ['bind-email', BindEmailPage],
    ['change-password', ChangePasswordPage],
  ]),
  { path: '/responsible-gaming', layout: true, element: page(ResponsibleGamingPage) },
  { path: '/gameInfo', layout: false, element: page(GameInfoPage) },
  { path: '/cztx', layout: false, element: page(CashierPage) },
  { path: '/download', layout: false, element: page(DownloadPage) },
  { path: '/test', layout: false, element: page(DiagnosticsPage) },
  { path: '/test12', layout: false, element: page(DiagnosticsPage) },
  // Issue 4: the game record and the fairness page (no route named by the spec) and one full-screen
  // page per in-house game, at the url the launch call answers.
  { path: '/game-record', layout: true, element: page(GameRecordPage) },
  { path: '/fairness', layout: true, element: page(FairnessPage) },
  // Issue 17: the sports home the spec implies (§2), an event (by ?id=, the spec's routes take no
  // parameters) and "My bets".
  { path: '/sports', layout: true, element: page(SportsHomePage) },
  { path: '/sports/event', layout: true, element: page(SportsEventPage) },
  { path: '/sports/my-bets', layout: true, element: page(SportsMyBetsPage) },
  { path: '/play', layout: false, element: page(ThirdPartyPage) },
  ...ORIGINAL_CODES.map((code) => ({
    path: `/originals/${code}`,
    layout: false,
    element: <OriginalGamePage key={code} code={code} />,
  })),
];
