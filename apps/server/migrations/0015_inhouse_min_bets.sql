-- The minimum bet an in-house game shows is the smallest stake it accepts for some choice
-- (packages/fairness stake-rules.ts, docs/decisions/009-stakes-that-pay-the-rtp-shown.md): below
-- these no choice pays within 0.1 pp of the RTP shown. Hi-Lo R$ 9,10 (a call that cannot lose, then
-- cash-out, must pay 99 %), crash R$ 1,00 (whole reais pay every cash-out point exactly), bingo
-- R$ 0,20 (its ×0.15 line), Mines R$ 0,12 (24 mines, multiples of R$ 0,04). The other games keep
-- R$ 0,10 (dice at ×2, limbo at 2×, plinko, keno with one pick, roulette) and the slot R$ 0,20.
UPDATE games SET min_bet_minor = v.min_bet_minor
FROM (VALUES ('hilo', 910), ('crash', 100), ('bingo', 20), ('mines', 12)) AS v(code, min_bet_minor)
WHERE games.code = v.code AND games.is_inhouse;
