import {
  AGGREGATOR_SIGNATURE_HEADER,
  type TAggregatorLaunchRequest,
  ZAggregatorLaunchResponse,
} from '@sorte/contract';
import { signBody } from '@sorte/provider-protocol';

/** How long a launch may take before the player is told the provider is unreachable. */
const LAUNCH_TIMEOUT_MS = 5_000;

/**
 * The operator → aggregator side: the launch call, signed like the wallet calls (HMAC-SHA256 of
 * the raw body under the shared secret). The game URL it answers must be on the aggregator's own
 * origin: that origin is the only one the player site allows in a frame.
 */
export class AggregatorClient {
  readonly origin: string;

  constructor(
    private readonly baseUrl: string,
    private readonly secret: string,
  ) {
    this.origin = new URL(baseUrl).origin;
  }

  async launch(request: TAggregatorLaunchRequest): Promise<string> {
    const raw = JSON.stringify(request);
    const response = await fetch(`${this.baseUrl.replace(/\/+$/, '')}/api/v1/launch`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [AGGREGATOR_SIGNATURE_HEADER]: signBody(this.secret, raw),
      },
      body: raw,
      signal: AbortSignal.timeout(LAUNCH_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`aggregator launch answered HTTP ${response.status}`);
    const { game_url } = ZAggregatorLaunchResponse.parse(await response.json());
    if (new URL(game_url).origin !== this.origin) {
      throw new Error(`aggregator game url ${game_url} is not on ${this.origin}`);
    }
    return game_url;
  }
}
