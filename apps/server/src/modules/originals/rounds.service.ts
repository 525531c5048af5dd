import { formatMinor, type TRound } from '@sorte/contract';
import type { TRoundWithGame } from './originals.repo.ts';

/**
 * Round recall: the game record list (brand, name, bet time, bet amount, win/loss) and the full
 * details of one round with what the verifier needs. The server seed appears only once its pair
 * was rotated; before that the commitment (hash) is shown.
 */

export function toRoundView(round: TRoundWithGame): TRound {
  return {
    id: round.id.toString(),
    game: round.gameCode,
    game_name: round.gameName,
    status: round.status,
    demo: round.demoSessionId !== null,
    stake: formatMinor(round.stakeMinor),
    payout: formatMinor(round.payoutMinor),
    win_loss: formatMinor(round.payoutMinor - round.stakeMinor),
    multiplier: round.multiplier,
    params: round.params,
    outcome: round.outcome ?? {},
    fairness: {
      server_seed_hash: round.serverSeedHash,
      server_seed: round.pairRevealed ? round.serverSeed : null,
      client_seed: round.clientSeed,
      nonce: Number(round.nonce),
    },
    created_at: round.createdAt.toISOString(),
    settled_at: round.settledAt?.toISOString() ?? null,
  };
}
