import type { JURISDICTIONS } from './backoffice-content.ts';

/**
 * The lowest RTP a game may have on a site of each jurisdiction profile, as data (never `if (br)`).
 * - br: 85 %, the minimum return of an online game in Brazil (Portaria SPA/MF 1.207/2024).
 * - intl: no statutory minimum under GLI-19; 85 % is Sorte's own floor, so one game catalogue
 *   serves every site. Checked against every declared RTP by the fairness tests and by the
 *   certification pack.
 */
export const RTP_FLOORS: Readonly<Record<(typeof JURISDICTIONS)[number], number>> = {
  intl: 0.85,
  br: 0.85,
};
