import { type ReactNode, useEffect, useRef, useState } from 'react';

/** How near the viewport (above or below) a deferred part starts to render. */
const NEAR_VIEWPORT = '200px 0px';
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
 * A part of a page below the fold, rendered when it comes near the viewport or when the browser is
 * idle, whichever is first, instead of in the page's first render: the first screen is drawn
 * sooner and the work of the rest comes in small pieces after it. Until then a placeholder of a
 * fixed height (the part's usual height) holds its place, so nothing on screen moves.
 */
export function Deferred({
  children,
  ready = true,
  placeholderHeight,
}: {
  children: ReactNode;
  /** False while the part's data is on its way: it then renders once, with all of it. */
  ready?: boolean;
  /** The part's usual height in CSS pixels (a fixed height: no layout shift when it renders). */
  placeholderHeight: number;
}) {
  const [shown, setShown] = useState(false);
  const placeholder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (shown) return;
    const show = () => setShown(true);
    const handle = idle.request(show);
    const element = placeholder.current;
    const observer =
      element && typeof IntersectionObserver === 'function'
        ? new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && show(), {
            rootMargin: NEAR_VIEWPORT,
          })
        : undefined;
    if (element) observer?.observe(element);
    return () => {
      idle.cancel(handle);
      observer?.disconnect();
    };
  }, [shown]);
  if (shown && ready) return <>{children}</>;
  return <div ref={placeholder} style={{ height: placeholderHeight }} aria-hidden="true" />;
}
