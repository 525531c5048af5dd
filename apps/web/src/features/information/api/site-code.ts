import type { TSiteData } from '@sorte/contract';
import { queryClient } from '../../../lib/query-client.ts';

/** The `site` the spec's information-centre calls carry (the Host decides on the server anyway). */
export function siteCode(): string | undefined {
  return queryClient.getQueryData<TSiteData>(['site', 'data'])?.site;
}
