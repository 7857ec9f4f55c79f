import type { Position } from '@wallet-api/core/proto/positions';
import type { PositionResource } from '../schemas/position.js';
import { toFungibleInfo } from './fungible-info.js';
import { quantity } from './quantity.js';

/** Proto strings are empty when a field does not apply; the API says so with null. */
const orNull = (value: string) => (value === '' ? null : value);

function receipt(position: Position): PositionResource['attributes']['receipt'] {
  const { fungibleReceipt, nftReceipt } = position;
  if (nftReceipt) {
    return { nft_info: { chain_id: nftReceipt.chainId, contract_address: nftReceipt.contractAddress, token_id: nftReceipt.tokenId } };
  }
  if (fungibleReceipt) {
    const token = fungibleReceipt.token;
    const amount = fungibleReceipt.amount;
    return {
      fungible_info: toFungibleInfo(token, position.chainId, token?.address ?? ''),
      // Spec 2.3: the receipt quantity is omitted when unavailable or zero.
      ...(amount !== '' && BigInt(amount) !== 0n ? { quantity: quantity(amount, token?.decimals ?? 0) } : {}),
    };
  }
  return undefined;
}

function changes(position: Position): PositionResource['attributes']['changes'] {
  const { changeAbsolute1d, changePercent1d } = position;
  if (changeAbsolute1d === undefined && changePercent1d === undefined) return null;
  return { absolute_1d: changeAbsolute1d ?? null, percent_1d: changePercent1d ?? null };
}

/** Spec 2.3 position resource from the positions service's record. */
export function toPositionResource(position: Position, baseUrl: string): PositionResource {
  const { chainId, token, dapp } = position;
  const fungibleId = token?.fungibleId ?? '';
  const positionReceipt = receipt(position);
  return {
    type: 'positions',
    id: position.id,
    attributes: {
      name: position.name,
      quantity: quantity(position.amount, token?.decimals ?? 0),
      parent: orNull(position.parentId),
      protocol: orNull(position.protocol),
      protocol_module: orNull(position.protocolModule),
      pool_address: orNull(position.poolAddress),
      group_id: orNull(position.groupId),
      position_type: position.positionType as PositionResource['attributes']['position_type'],
      value: position.value ?? null,
      price: position.price ?? null,
      changes: changes(position),
      fungible_info: toFungibleInfo(token, chainId, token?.address ?? ''),
      flags: { displayable: position.displayable, is_trash: position.isTrash },
      updated_at: new Date(Number(position.updatedAt) * 1000).toISOString(),
      updated_at_block: Number(position.updatedAtBlock),
      ...(dapp ? { application_metadata: { name: dapp.name, icon: dapp.iconUrl ? { url: dapp.iconUrl } : null, url: dapp.url } } : {}),
      ...(positionReceipt ? { receipt: positionReceipt } : {}),
    },
    relationships: {
      chain: { links: { related: `${baseUrl}/v1/chains/${encodeURIComponent(chainId)}` }, data: { type: 'chains', id: chainId } },
      ...(fungibleId
        ? { fungible: { links: { related: `${baseUrl}/v1/fungibles/${encodeURIComponent(fungibleId)}` }, data: { type: 'fungibles', id: fungibleId } } }
        : {}),
      ...(dapp ? { dapp: { data: { type: 'dapps' as const, id: dapp.id } } } : {}),
    },
  };
}
