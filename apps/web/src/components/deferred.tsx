import { type ReactNode, useEffect, useRef, useState } from 'react';

/** How near the viewport (above or below) a deferred part starts to render. */
const NEAR_VIEWPORT = '400px 0px';
/** The longest a deferred part waits for an idle moment while it stays far from the viewport. */
const IDLE_TIMEOUT_MS = 2_500;

type TIdle = { request: (run: () => void) => number; cancel: (handle: number) => void };

/** requestIdleCallback where the browser has it (Safari does not), else a short timer. */
const idle: TIdle =
  typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function'
    ? {
        request: (run) => window.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS }),
        cancel: (handle) => window.cancelIdleCallback(handle),
      }
    : { request: (run) => window.setTimeout(run, 200), cancel: (handle) => window.clearTimeout(handle) };

/**
 * A part of a page below the fold, rendered when it comes near the viewport (or, with `whenIdle`,
 * when the browser is idle, if that is first) instead of in the page's first render: the first
 * screen is drawn sooner and the work of the rest comes in small pieces after it, or not at all for
 * a player who never scrolls there. Until then a placeholder of a fixed height (the part's usual
 * height) holds its place, so nothing on screen moves.
 */
export function Deferred({
  children,
  ready = true,
  whenIdle = false,
  placeholderHeight,
}: {
  children: ReactNode;
  /** False while the part's data is on its way: it then renders once, with all of it. */
  ready?: boolean;
  /** Also render in the browser's first idle moment, even far from the viewport. */
  whenIdle?: boolean;
  /** The part's usual height in CSS pixels (a fixed height: no layout shift when it renders). */
  placeholderHeight: number;
}) {
  const [shown, setShown] = useState(false);
  const placeholder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (shown) return;
    const show = () => setShown(true);
    const element = placeholder.current;
    // Without IntersectionObserver (an old browser, a test's DOM) the idle moment is the only cue.
    const canObserve = typeof IntersectionObserver === 'function';
    const handle = whenIdle || !canObserve ? idle.request(show) : undefined;
    const observer =
      element && canObserve
        ? new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && show(), {
            rootMargin: NEAR_VIEWPORT,
          })
        : undefined;
    if (element) observer?.observe(element);
    return () => {
      if (handle !== undefined) idle.cancel(handle);
      observer?.disconnect();
    };
  }, [shown, whenIdle]);
  if (shown && ready) return <>{children}</>;
  return <div ref={placeholder} style={{ height: placeholderHeight }} aria-hidden="true" />;
}
