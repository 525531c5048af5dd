import type { TFunction } from 'i18next';
import type { ApiError } from '../../lib/api-client.ts';

/** The launch failed because there is no connection (not because the server refused it). */
export const isOffline = (error: unknown) =>
  !navigator.onLine || (error as Partial<ApiError> | null)?.code === 'NETWORK';

/**
 * Why a game did not open: offline, the lobby still works from its cache but a round needs the
 * server, so the player is told that rather than shown a network error; otherwise the server's word.
 */
export const launchFailureText = (error: unknown, t: TFunction) =>
  isOffline(error) ? t('lobby.play_needs_connection') : (error as ApiError).message;
