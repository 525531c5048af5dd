import { type TGameFrameMessage, ZGameFrameMessage } from '@sorte/contract';

/**
 * Reads a message from the framed game page: only from the provider's own origin and only in the
 * agreed shape; anything else (other windows, browser extensions) is ignored.
 */
export function readFrameMessage(event: MessageEvent, gameUrl: string): TGameFrameMessage | null {
  let origin: string;
  try {
    origin = new URL(gameUrl).origin;
  } catch {
    return null;
  }
  if (event.origin !== origin) return null;
  const parsed = ZGameFrameMessage.safeParse(event.data);
  return parsed.success ? parsed.data : null;
}
