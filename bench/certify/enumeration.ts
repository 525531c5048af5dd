import { RTP_FLOORS } from '@sorte/contract';
import { slotRtp, toDouble } from './exact.ts';
import { GAME_MODES } from './modes.ts';

export interface EnumeratedMode {
  id: string;
  game: string;
  mode: string;
  declaredRtp: number;
  exactRtp: number;
  /** |exact − declared| ≤ 10⁻¹² (crash and limbo are exact fractions of 2⁵² / 2⁶⁴ within that). */
  matches: boolean;
  best?: { rtp: number; strategy: string };
  /** Per jurisdiction profile: is the RTP at or above the profile's floor? */
  floors: Record<string, { floor: number; meets: boolean }>;
}

/** The paytables by enumeration (exact fractions), against the declared RTP and every profile's floor. */
export function runEnumeration(enumerateSlot: boolean): EnumeratedMode[] {
  const slot = enumerateSlot ? toDouble(slotRtp().rtp) : Number.NaN;
  return GAME_MODES.map((mode) => {
    const exactRtp = mode.game === 'slot' ? slot : mode.exactRtp;
    const floors = Object.fromEntries(
      Object.entries(RTP_FLOORS).map(([profile, floor]) => [
        profile,
        { floor, meets: mode.declaredRtp >= floor && !(exactRtp < floor) },
      ]),
    );
    return {
      id: mode.id,
      game: mode.game,
      mode: mode.mode,
      declaredRtp: mode.declaredRtp,
      exactRtp,
      matches: Math.abs(exactRtp - mode.declaredRtp) <= 1e-12,
      ...(mode.best ? { best: mode.best } : {}),
      floors,
    };
  });
}
