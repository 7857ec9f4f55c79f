import { unary } from '../grpc/index.js';
import { Network } from '../generated/proto/common.js';
import type { Chain, ReferenceDataClient } from '../generated/proto/reference_data.js';

/** Every chain reference-data lists, mainnets and testnets alike: back-end services serve both networks. */
export async function listAllChains(client: ReferenceDataClient): Promise<Chain[]> {
  const networks = [Network.NETWORK_MAINNET, Network.NETWORK_TESTNET];
  const lists = await Promise.all(
    networks.map((network) =>
      unary(client, client.listChains, { context: { organizationId: '', roles: [], addons: [], network } }, { name: 'ReferenceData/ListChains' }),
    ),
  );
  return lists.flatMap((list) => list.chains);
}
