import type { TJob } from '../../jobs/runner.ts';
import { fetchPendingDocuments, purgeExpiredDocuments, rekeyDocuments } from './kyc-documents.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** The identity-verification jobs (ADR 036 §7, §10). */
export const kycJobs: TJob[] = [
  {
    name: 'kyc-documents-fetch',
    does: 'takes from the provider the documents of sessions sent to manual review whose files are not stored yet',
    everyMs: MINUTE_MS,
    claim: {
      keyed:
        'a session stores its files in one statement with ON CONFLICT (session_id, kind) DO NOTHING, so two processes fetching one session store it once; under npm run serve each worker asks its own sandbox, and the one that created the session answers',
    },
    runAtStart: true,
    level: 'warn',
    run: (app) => fetchPendingDocuments({ db: app.services.db, kyc: app.kyc, vault: app.kycVault }),
  },
  {
    name: 'kyc-documents-retention',
    does: "deletes identity documents past their profile's retention (from the later of the decision and the account's closure)",
    // Four ticks an hour so some process's tick falls in every hour; the claim runs one.
    everyMs: HOUR_MS / 4,
    claim: { periodMs: HOUR_MS },
    level: 'warn',
    run: (app) => purgeExpiredDocuments(app.services.db),
  },
  {
    name: 'kyc-documents-rekey',
    does: 'seals again under KYC_DOCUMENT_KEY the identity documents still sealed under a retired key',
    everyMs: HOUR_MS / 4,
    claim: {
      keyed:
        'a document is sealed again only while it is still under the key it was read with, so two processes rekeying at once change each row once',
    },
    runAtStart: true,
    level: 'warn',
    run: async (app) => {
      if (app.kycVault.retiredKeyIds.length === 0) return null;
      const done = await rekeyDocuments(app.services.db, app.kycVault);
      if (done.left > 0)
        app.log.error(
          { left: done.left },
          'identity documents under a retired key do not open: look at them before dropping the key',
        );
      return done;
    },
  },
];
