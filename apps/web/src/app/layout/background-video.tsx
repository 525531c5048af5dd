import { useSyncExternalStore } from 'react';
import { useSiteData } from '../../lib/site.ts';

/** Spec §9: the background video plays only when the window is wider than 600 px. */
const WIDE_QUERY = '(min-width: 601px)';

function subscribe(listener: () => void): () => void {
  const media = window.matchMedia?.(WIDE_QUERY);
  if (!media) return () => {};
  media.addEventListener('change', listener);
  return () => media.removeEventListener('change', listener);
}

/**
 * The media query where the browser has one: reading window.innerWidth during the first render
 * forces the browser to lay out the page there and then.
 */
export function isWideWindow(): boolean {
  return window.matchMedia?.(WIDE_QUERY).matches ?? window.innerWidth > 600;
}

export function BackgroundVideo() {
  const { data: site } = useSiteData();
  const wide = useSyncExternalStore(subscribe, isWideWindow, () => false);
  const source = site?.background_video;
  if (!wide || !source) return null;
  return (
    <div className="background-video" aria-hidden="true">
      <video src={source} autoPlay muted loop playsInline preload="metadata" />
    </div>
  );
}
