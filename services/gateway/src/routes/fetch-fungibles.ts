import { unary } from '@wallet-api/core/grpc';
import type { RequestContext } from '@wallet-api/core/proto/common';
import type { ReferenceDataClient, TokenRef } from '@wallet-api/core/proto/reference_data';
import { responseFungibles, type ResponseFungibles } from './fungible-info.js';
import { inBatches } from './reference-data-batches.js';

/**
 * The fungibles of every token a response shows, from one GetFungibles call in the request's
 * currency and context (the organization's add-ons decide `asset_class`). Asked by implementation,
 * each once; nothing is kept between requests, so prices and supplies are as of this request.
 */
export async function fetchResponseFungibles(
  referenceData: ReferenceDataClient,
  context: RequestContext,
  currency: string,
  tokens: readonly TokenRef[],
): Promise<ResponseFungibles> {
  const unique = new Map(tokens.map((token) => [`${token.chainId}:${token.address.toLowerCase()}`, token]));
  const answers = await Promise.all(
    inBatches([...unique.values()]).map((implementations) =>
      unary(referenceData, referenceData.getFungibles, { context, currency, fungibleIds: [], implementations }, { name: 'ReferenceData/GetFungibles' }),
    ),
  );
  return responseFungibles(answers.flatMap((answer) => answer.fungibles));
}
