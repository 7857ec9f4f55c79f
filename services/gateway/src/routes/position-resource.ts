import type { Position } from '@wallet-api/core/proto/positions';
import type { TokenRef } from '@wallet-api/core/proto/reference_data';
import type { PositionResource } from '../schemas/position.js';
import type { ResponseFungibles } from '@wallet-api/core/resources';
import { tokenQuantity } from '@wallet-api/core/resources';

/** Proto strings are empty when a field does not apply; the API says so with null. */
const orNull = (value: string) => (value === '' ? null : value);

/** Every token the positions show, receipts' too, as GetFungibles is asked for them. */
export function positionTokens(positions: readonly Position[]): TokenRef[] {
  return positions.flatMap((position) => [
    { chainId: position.chainId, address: position.token?.address ?? '' },
    ...(position.fungibleReceipt ? [{ chainId: position.chainId, address: position.fungibleReceipt.token?.address ?? '' }] : []),
  ]);
}

function receipt(position: Position, fungibles: ResponseFungibles): PositionResource['attributes']['receipt'] {
  const { fungibleReceipt, nftReceipt } = position;
  if (nftReceipt) {
    // NFT receipts are the position NFTs of concentrated-liquidity managers (Uniswap V3's
    // NonfungiblePositionManager and its forks), all ERC-721; the positions proto does not say.
    return { nft_info: { chain_id: nftReceipt.chainId, contract_address: nftReceipt.contractAddress, token_id: nftReceipt.tokenId, interface: 'erc721' } };
  }
  if (fungibleReceipt) {
    const token = fungibleReceipt.token;
    const amount = fungibleReceipt.amount;
    return {
      fungible_info: fungibles.fungibleInfo(position.chainId, token?.address ?? '', token),
      // Spec 2.3: the receipt quantity is omitted when unavailable or zero.
      ...(amount !== '' && BigInt(amount) !== 0n ? { quantity: tokenQuantity(amount, token) } : {}),
    };
  }
  return undefined;
}

function changes(position: Position): PositionResource['attributes']['changes'] {
  const { changeAbsolute1d, changePercent1d } = position;
  if (changeAbsolute1d === undefined && changePercent1d === undefined) return null;
  return { absolute_1d: changeAbsolute1d ?? null, percent_1d: changePercent1d ?? null };
}

/** Spec 2.3 position resource from the positions service's record and the response's fungibles. */
export function toPositionResource(position: Position, baseUrl: string, fungibles: ResponseFungibles): PositionResource {
  const { chainId, token, dapp } = position;
  const fungibleInfo = fungibles.fungibleInfo(chainId, token?.address ?? '', token);
  const fungibleId = fungibleInfo.id;
  const positionReceipt = receipt(position, fungibles);
  return {
    type: 'positions',
    id: position.id,
    attributes: {
      name: position.name,
      quantity: tokenQuantity(position.amount, token),
      parent: orNull(position.parentId),
      protocol: orNull(position.protocol),
      protocol_module: orNull(position.protocolModule),
      pool_address: orNull(position.poolAddress),
      group_id: orNull(position.groupId),
      position_type: position.positionType as PositionResource['attributes']['position_type'],
      value: position.value ?? null,
      price: position.price ?? null,
      changes: changes(position),
      fungible_info: fungibleInfo,
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
