/**
 * Stable machine codes carried in `code` of a failed envelope, with the HTTP status each maps to.
 * The message shown to people is the translation of `errors.<CODE>` in `messages`.
 */
export const ERROR_CODES = {
  /** The body or query did not match the endpoint's schema; `errors` lists the fields. */
  VALIDATION_FAILED: 422,
  /** A syntactically broken request (bad JSON, wrong content type, body too large). */
  BAD_REQUEST: 400,
  /** No session, or it expired or was ended. */
  UNAUTHENTICATED: 401,
  /**
   * The session sat idle longer than the site's jurisdiction profile allows ({minutes}; also
   * `idle_minutes` in the envelope): it is over and the member signs in again with the password.
   */
  SESSION_IDLE: 401,
  /** The session is valid but the caller may not do this (e.g. another member's id). */
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  /** The path exists but not with this method; `Allow` lists the ones it takes. */
  METHOD_NOT_ALLOWED: 405,
  /** The Host header names no site we serve. */
  UNKNOWN_SITE: 404,
  /** Captcha missing, wrong, expired or already used: ask for a new one. */
  CAPTCHA_INVALID: 400,
  USERNAME_TAKEN: 409,
  /** Username or password wrong (never says which). */
  INVALID_CREDENTIALS: 401,
  /** Too many failed logins for this account or address; retry later. */
  TOO_MANY_ATTEMPTS: 429,
  /** General request rate limit. */
  RATE_LIMITED: 429,
  /** The introducer / invite code names nobody on this site. */
  INVITE_CODE_UNKNOWN: 422,
  ACCOUNT_DISABLED: 403,
  /** Same idempotency key, different request. */
  IDEMPOTENCY_CONFLICT: 409,
  INSUFFICIENT_FUNDS: 409,
  /** A money amount the ledger refuses (zero, negative, beyond the largest amount or a balance ceiling). */
  INVALID_AMOUNT: 422,
  /** A money movement the ledger refuses as malformed (e.g. a hold account touched directly). */
  INVALID_TRANSFER: 422,
  /** The member or site has no wallet account for this operation. */
  ACCOUNT_NOT_FOUND: 404,
  /** A withdrawal hold that does not exist on this site. */
  HOLD_NOT_FOUND: 404,
  /** The withdrawal hold was already paid out or returned. */
  HOLD_ALREADY_RESOLVED: 409,
  /** The member already has the most bank cards allowed (BANK_CARD_LIMIT in bank-cards.ts). */
  BANK_CARD_LIMIT: 409,
  /** This PIX key is already on an active card of this site (the caller's or another member's). */
  BANK_CARD_DUPLICATE: 409,
  /** The card is used by a withdrawal that is not finished, so it cannot be removed yet. */
  BANK_CARD_IN_USE: 409,
  /** `br` site: this CPF already belongs to another member of the site. */
  CPF_IN_USE: 409,
  /** A balance query for a currency other than BRL. */
  CURRENCY_UNSUPPORTED: 422,
  /** A money amount is outside the bounds of this channel / withdrawal rule ({min}..{max}). */
  AMOUNT_OUT_OF_RANGE: 422,
  /** The payment method or channel is unknown, switched off, or not offered on this site. */
  PAYMENT_METHOD_UNAVAILABLE: 422,
  /** The PSP could not be reached or refused the request; nothing was charged. */
  PAYMENT_SERVICE_UNAVAILABLE: 503,
  /** No such deposit or withdrawal order for this caller (another member's order is not found). */
  ORDER_NOT_FOUND: 404,
  /** The order was already processed (approved, rejected, paid) and cannot take this action. */
  ORDER_STATE_CONFLICT: 409,
  /** The withdrawal password is wrong; {remaining} attempts before the lockout. */
  WITHDRAW_PASSWORD_WRONG: 422,
  /** The member has not set a withdrawal password yet. */
  WITHDRAW_PASSWORD_NOT_SET: 409,
  /** Too many wrong withdrawal passwords: withdrawals are locked for {minutes} minutes. */
  WITHDRAW_LOCKED: 429,
  /** The daily number of withdrawal requests ({count}) is used up. */
  WITHDRAW_DAILY_LIMIT: 429,
  /** Rewards still require turnover ({amount}) before a withdrawal. */
  WAGERING_NOT_MET: 409,
  /** A stake above the max bet of a bonus still being wagered (param max). */
  BONUS_MAX_BET: 422,
  /** Promotions: the caller does not meet the campaign's conditions ("You're not eligible for this reward"). */
  PROMO_NOT_ELIGIBLE: 422,
  /** Promotions: nothing to receive now, e.g. already claimed for this period ("Not eligible to receive"). */
  PROMO_NOTHING_TO_CLAIM: 409,
  /** Recharge rebate: no top-up left that qualifies ("No eligible top-ups"). */
  PROMO_NO_ELIGIBLE_TOPUPS: 409,
  /** Lottery wheel: no spin left ("No more roll remaining"). */
  PROMO_NO_SPINS: 409,
  /** The reward needs a higher VIP level ("Upgrade required"). */
  PROMO_UPGRADE_REQUIRED: 403,
  /** The campaign is off on this site; the message says why (its off reason). */
  PROMO_UNAVAILABLE: 409,
  /** Invitation claim naming nobody the caller invited ("USER DOES NOT EXIST"). */
  USER_DOES_NOT_EXIST: 409,
  /** The bank card / PIX key is not one of the caller's active cards. */
  BANK_CARD_NOT_FOUND: 404,
  /** br sites: the PIX key / payer is not in the member's own CPF. */
  CPF_MISMATCH: 422,
  /** The stake is below the game's minimum or above its maximum (params: min, max). */
  BET_OUT_OF_RANGE: 422,
  /**
   * The stake is too small for the chosen target / mines / paytable: whole-centavo payouts would
   * return less than the RTP shown (packages/fairness stake-rules.ts). Params: min (every stake from
   * it is accepted) and, with messageKey errors.STAKE_TOO_SMALL_FOR_TARGET_OR_STEP, step (below min,
   * multiples of it pay exactly).
   */
  STAKE_TOO_SMALL_FOR_TARGET: 422,
  /** Limbo target or crash auto cash-out whose win at this stake passes the max win (params: max_target, max_win). */
  TARGET_ABOVE_CAP: 422,
  /** Mines / Hi-Lo: the pick or call would win more than the max win (param max_win); cash out instead. */
  MAX_WIN_REACHED: 409,
  /** The game parameters are not a valid bet (e.g. a roulette bet not on the table). */
  INVALID_BET: 422,
  /** The round was already settled (a second cash-out) or is not the caller's. */
  ROUND_NOT_ACTIVE: 409,
  /** A stepped game (mines, hi-lo) has an unfinished round, or seeds rotate while one is open. */
  ROUND_IN_PROGRESS: 409,
  /** The game is disabled on this site, or cannot be launched in the requested mode. */
  GAME_UNAVAILABLE: 409,
  /** Crash: bets for this round are closed (it is running or over); bet on the next round. */
  CRASH_BETTING_CLOSED: 409,
  /** Crash: the member already has a bet in this round (one bet per round). */
  CRASH_ALREADY_BET: 409,
  /** Crash: a cash-out outside the running phase (before 1.01× or at/after the crash). */
  CRASH_CASHOUT_CLOSED: 409,
  /** A third-party game's provider (aggregator) did not answer the launch; nothing was opened. */
  PROVIDER_UNAVAILABLE: 503,
  /** The demo (fun-money) session token is missing, unknown or expired. */
  DEMO_SESSION_INVALID: 401,
  /** Security centre: the old (current) login password is wrong. */
  OLD_PASSWORD_WRONG: 422,
  /** Re-enter the login password (/verify-password) before this change; it lasts a few minutes. */
  PASSWORD_NOT_VERIFIED: 403,
  /** An emailed code that is wrong, expired, used or tried too often: ask for a new one. */
  EMAIL_CODE_INVALID: 422,
  /** This email address is already confirmed on another account of the site. */
  EMAIL_IN_USE: 409,
  /** Two-factor authentication is on: the authenticator code is needed (login, withdrawal). */
  TOTP_REQUIRED: 403,
  /** The authenticator or recovery code is wrong; {remaining} attempts before a lockout. */
  TOTP_INVALID: 422,
  /** Two-factor authentication is already on (set it up again after turning it off). */
  TOTP_ALREADY_ENABLED: 409,
  /** Confirming two-factor authentication before asking for a secret. */
  TOTP_NOT_SET_UP: 409,
  /** Responsible gaming: the deposit would pass the player's deposit limit (limit, left, period, reset_at). */
  RG_DEPOSIT_LIMIT: 409,
  /** A new version of the terms is in force and the player has not accepted it: no bets or deposits. */
  TERMS_NOT_ACCEPTED: 409,
  /** A terms version must be announced at least {days} days before its effective date. */
  TERMS_NOTICE_TOO_SHORT: 422,
  /** Accepting a terms version that is not the one pending. */
  TERMS_VERSION_UNKNOWN: 409,
  /** The bet could lose more than the loss limit leaves (limit, left, period, reset_at). */
  RG_LOSS_LIMIT: 409,
  /** The bet would pass the stake (wager) limit (limit, left, period, reset_at). */
  RG_STAKE_LIMIT: 409,
  /** The session-time limit is used up: the session ended; login waits for reset_at. */
  RG_TIME_LIMIT: 403,
  /** A pause (cooling-off) is running until {until}: no login to play, no bets, no deposits. */
  COOLING_OFF: 403,
  /** Self-excluded (until {until}, or indefinitely): no play, no deposits; withdrawals stay open. */
  SELF_EXCLUDED: 403,
  /** The CPF is impeded on the national self-exclusion registry. */
  REGISTRY_IMPEDED: 403,
  /** The national self-exclusion registry could not be reached; sign-up waits (nothing was created). */
  REGISTRY_UNAVAILABLE: 503,
  /** A limit the site's jurisdiction makes mandatory at sign-up is missing ({limit}). */
  RG_LIMIT_REQUIRED: 422,
  /**
   * The site's jurisdiction requires verified checks before this action (deposit, bet or
   * withdrawal; data.kyc: action and the missing checks, cpf and/or identity). Nothing happened.
   */
  KYC_REQUIRED: 403,
  /** The CPF check failed (the message says why: irregular, deceased, name or birth date mismatch, under age, no CPF). */
  KYC_CPF_REJECTED: 422,
  /** Starting a verification when every check the site requires has passed. */
  KYC_ALREADY_VERIFIED: 409,
  /** The documents were sent and await the provider's decision: no new verification meanwhile. */
  KYC_IN_REVIEW: 409,
  /** The identity check was rejected ({reason}); support reviews it, the player cannot start another. */
  KYC_REJECTED: 403,
  /** The KYC provider could not be reached: nothing was started; retry shortly. */
  KYC_PROVIDER_UNAVAILABLE: 503,
  /** Back office: no session of this site with that id is in manual review. */
  KYC_REVIEW_NOT_FOUND: 404,
  /** Back office: the session was already approved or rejected (by the provider or an operator). */
  KYC_REVIEW_CLOSED: 409,
  /** Back office: no stored document of this site with that id (or it was purged at the end of its retention). */
  KYC_DOCUMENT_NOT_FOUND: 404,
  /** The site's profile does not prefill sign-up from a CPF lookup. */
  KYC_CPF_LOOKUP_OFF: 404,
  /** Chat: the site's room is off. */
  CHAT_DISABLED: 403,
  /** Chat: an operator muted the caller (until {until}, or until lifted). */
  CHAT_MUTED: 403,
  /** Chat: links and web addresses are not allowed in messages. */
  CHAT_LINK_BLOCKED: 422,
  /** Agency: no settled commission waits to be claimed. */
  AGENCY_NOTHING_TO_CLAIM: 409,
  /** Sports: a leg's odds moved and the slip's policy does not accept it (data.changes: selection_id, odds_seen, odds_now). */
  ODDS_CHANGED: 409,
  /** Sports: a leg's market is suspended (data.selection_ids); nothing was placed. */
  MARKET_SUSPENDED: 409,
  /** Sports: a leg's market is settled or its event is over or cancelled (data.selection_ids). */
  MARKET_CLOSED: 409,
  /** Sports: an accumulator with two legs from one event. */
  SPORTS_SAME_EVENT: 422,
  /** Sports: the cash-out offer moved since the player saw it (data.value: the new offer). */
  CASH_OUT_CHANGED: 409,
  /** Sports: no cash-out now (bet not open, a market suspended or settled, an event over). */
  CASH_OUT_UNAVAILABLE: 409,
  /** Sports: the bet's potential return passes the site's max payout (params: max_payout, max = the largest stake). */
  SPORTS_MAX_PAYOUT: 422,
  /** Back office: the same operator cannot give both approvals of a two-person withdrawal. */
  APPROVER_MUST_DIFFER: 403,
  /** Back office: compliance holds this player's withdrawals (ADR 040); the order stays in review. */
  COMPLIANCE_HOLD: 409,
  /** Back office: the compliance case was already decided (closed or reported). */
  COMPLIANCE_CASE_DECIDED: 409,
  /** Back office: a COAF communication was made that year, so there is no non-occurrence to declare. */
  COMPLIANCE_REPORTED_THIS_YEAR: 409,
  /** Back office: the one-time owner setup link is unknown, used or expired. */
  SETUP_LINK_INVALID: 404,
  /** Back office: a host name given for the site already answers for another site. */
  HOST_TAKEN: 409,
  /** Back office: the site's jurisdiction profile does not allow this setting (the message says why). */
  JURISDICTION_FORBIDS: 422,
  /** Back office: commission rules that do not hold together (tiers rising from 0, one rate per level). */
  AGENCY_RULES_INVALID: 422,
  /** No certification report ships with this build (docs/certification/report.json is missing or unreadable). */
  CERTIFICATION_REPORT_MISSING: 404,
  /** Anything we did not expect; details are only in the server log. */
  INTERNAL: 500,
  /** The database could not be reached or dropped the connection (a restart, a failover): retry shortly. */
  SERVICE_UNAVAILABLE: 503,
} as const;

export type TErrorCode = keyof typeof ERROR_CODES;
