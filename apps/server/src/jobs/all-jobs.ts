import { agencyJobs } from '../modules/agency/agency.jobs.ts';
import { amlJobs } from '../modules/aml/aml.jobs.ts';
import { chatJobs } from '../modules/chat/chat.jobs.ts';
import { depositJobs } from '../modules/deposits/deposits.jobs.ts';
import { kycJobs } from '../modules/kyc/kyc.jobs.ts';
import { mailJobs } from '../modules/mail/mail.jobs.ts';
import { promotionJobs } from '../modules/promotions/promotions.jobs.ts';
import { regulatorJobs } from '../modules/regulator/regulator.jobs.ts';
import { responsibleGamingJobs } from '../modules/responsible-gaming/rg.jobs.ts';
import { sportsJobs } from '../modules/sports/sports.jobs.ts';
import { withdrawalJobs } from '../modules/withdrawals/withdrawals.jobs.ts';
import type { TJob } from './runner.ts';

/** Every periodic job of the server, each declared in its module's `*.jobs.ts` (ADR 035). */
export const ALL_JOBS: readonly TJob[] = [
  ...depositJobs,
  ...withdrawalJobs,
  ...promotionJobs,
  ...agencyJobs,
  ...chatJobs,
  ...sportsJobs,
  ...responsibleGamingJobs,
  ...mailJobs,
  ...regulatorJobs,
  ...amlJobs,
  ...kycJobs,
];
