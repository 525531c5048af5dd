import { useTranslation } from 'react-i18next';
import { createStore, useStore } from '../../lib/store.ts';

/**
 * The in-house games' sounds: short tones made with Web Audio (no files to download), on by
 * default like the leading casinos, with a mute switch the player's choice is kept for. Nothing
 * sounds before the player's first tap on the page (browsers forbid it, and a page that speaks on
 * opening would be rude).
 */

export type TSound = 'bet' | 'win' | 'loss' | 'cashout' | 'crash' | 'tick';

const STORAGE_KEY = 'sound';
const readMuted = () => {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'off';
  } catch {
    return false;
  }
};
export const soundMuted = createStore<boolean>(readMuted());

export function setSoundMuted(muted: boolean): void {
  soundMuted.set(muted);
  try {
    localStorage.setItem(STORAGE_KEY, muted ? 'off' : 'on');
  } catch {
    // Private mode: the choice lasts for this page.
  }
}

/** [frequency Hz, start s, length s, oscillator type, peak gain] per note. */
type TNote = [number, number, number, OscillatorType, number];
const SOUNDS: Record<TSound, TNote[]> = {
  bet: [[520, 0, 0.07, 'triangle', 0.18]],
  tick: [[880, 0, 0.03, 'sine', 0.05]],
  win: [
    [660, 0, 0.12, 'triangle', 0.2],
    [880, 0.1, 0.12, 'triangle', 0.2],
    [1320, 0.2, 0.22, 'triangle', 0.18],
  ],
  cashout: [
    [988, 0, 0.1, 'sine', 0.22],
    [1319, 0.08, 0.28, 'sine', 0.2],
  ],
  loss: [
    [330, 0, 0.14, 'sine', 0.14],
    [220, 0.12, 0.22, 'sine', 0.12],
  ],
  crash: [
    [140, 0, 0.35, 'sawtooth', 0.16],
    [70, 0.05, 0.45, 'square', 0.08],
  ],
};

let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (typeof window === 'undefined' || !('AudioContext' in window)) return null;
  // The first sound comes after a tap (a bet): a context made then is allowed to play.
  if (!navigator.userActivation?.hasBeenActive) return null;
  context ??= new AudioContext();
  if (context.state === 'suspended') void context.resume();
  return context;
}

export function playSound(sound: TSound): void {
  if (soundMuted.get()) return;
  const ctx = audio();
  if (!ctx) return;
  const start = ctx.currentTime;
  for (const [frequency, at, length, type, peak] of SOUNDS[sound]) {
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    oscillator.type = type;
    oscillator.frequency.setValueAtTime(frequency, start + at);
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(peak, start + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start(start + at);
    oscillator.stop(start + at + length + 0.02);
  }
}

/** The win or loss sound of a settled round (a payout above nothing is a win). */
export function playOutcome(payout: string): void {
  playSound(/^0+(\.0+)?$/.test(payout) ? 'loss' : 'win');
}

/** The speaker button of the game bar: sound on or off, remembered. */
export function SoundToggle() {
  const { t } = useTranslation();
  const muted = useStore(soundMuted);
  return (
    <button
      type="button"
      className="icon-button"
      data-testid="sound-toggle"
      aria-pressed={!muted}
      aria-label={t('play.sound')}
      onClick={() => setSoundMuted(!muted)}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path
          d={
            muted
              ? 'M4 9.5h3.5L12 5.5v13l-4.5-4H4v-5Zm11.5 0 5 5m0-5-5 5'
              : 'M4 9.5h3.5L12 5.5v13l-4.5-4H4v-5Zm11.5.2a3.5 3.5 0 0 1 0 4.6M18 7.2a7 7 0 0 1 0 9.6'
          }
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}
