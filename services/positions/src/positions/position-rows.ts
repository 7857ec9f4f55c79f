import type { Position } from '@wallet-api/core/proto/positions';
import { TokenInterface, type TokenInfo } from '@wallet-api/core/proto/reference_data';
import type { DappTable, TokenTable } from '@wallet-api/core/reference-data';
import type { ProtocolKind, ProtocolPosition } from '../adapters/protocol-position.js';
import type { WalletBalance } from '../store/balance-store.js';
import { groupId, protocolPositionId, walletPositionId } from './position-id.js';

/** What a wallet has in protocols on one chain, as last read. */
export interface ProtocolHoldings {
  chainId: string;
  positions: readonly ProtocolPosition[];
  blockNumber: bigint;
  readAt: Date;
}

const protocolNames: Record<ProtocolKind, string> = {
  'uniswap-v2': 'Uniswap V2',
  'uniswap-v3': 'Uniswap V3',
  erc4626: 'Vault',
  staking: 'Staking',
  lending: 'Lending',
};

const protocolModules: Record<ProtocolKind, string> = {
  'uniswap-v2': 'liquidity_pool',
  'uniswap-v3': 'liquidity_pool',
  erc4626: 'vault',
  staking: 'staking',
  lending: 'lending',
};

/** Reference data's answer, or what is known without it: the address and no decimals. */
export function tokenOf(tokens: TokenTable, chainId: string, address: string): TokenInfo {
  return (
    tokens.info(chainId, address) ?? {
      chainId,
      address,
      interface: address === '' ? TokenInterface.TOKEN_INTERFACE_NATIVE : TokenInterface.TOKEN_INTERFACE_UNKNOWN,
      name: '',
      symbol: '',
      decimals: 0,
      fungibleId: '',
      iconUrl: '',
      verified: false,
      isSpam: false,
    }
  );
}

const displayName = (token: TokenInfo) => token.name || token.symbol || token.address;

/** One row per asset the wallet holds outright. */
export function walletPositions(wallet: string, balances: readonly WalletBalance[], tokens: TokenTable): Position[] {
  return balances.map((balance) => {
    const token = tokenOf(tokens, balance.chainId, balance.asset);
    return {
      id: walletPositionId(wallet, balance.chainId, balance.asset),
      chainId: balance.chainId,
      name: displayName(token),
      positionType: 'wallet',
      amount: balance.amount.toString(),
      token,
      protocol: '',
      protocolModule: '',
      poolAddress: '',
      groupId: '',
      parentId: '',
      dapp: undefined,
      isTrash: token.isSpam,
      displayable: !token.isSpam,
      updatedAt: balance.updatedAt.toString(),
      updatedAtBlock: balance.updatedBlock.toString(),
    };
  });
}

/** One row per protocol position; the dapp comes from the registry, the protocol name from it when known. */
export function protocolPositions(wallet: string, holdings: ProtocolHoldings, tokens: TokenTable, dapps: DappTable): Position[] {
  const { chainId } = holdings;
  const updatedAt = Math.floor(holdings.readAt.getTime() / 1000).toString();
  return holdings.positions.map((position) => {
    const token = tokenOf(tokens, chainId, position.token);
    const dapp = dapps.dapp(chainId, position.contract);
    const receipt = position.receipt;
    return {
      id: protocolPositionId(wallet, chainId, position.protocol, position.key, position.type, position.token),
      chainId,
      name: displayName(token),
      positionType: position.type,
      amount: position.amount.toString(),
      token,
      protocol: dapp?.name || protocolNames[position.protocol],
      protocolModule: protocolModules[position.protocol],
      poolAddress: position.poolAddress,
      groupId: position.group ? groupId(wallet, chainId, position.protocol, position.group) : '',
      parentId: position.parentType ? protocolPositionId(wallet, chainId, position.protocol, position.key, position.parentType, position.token) : '',
      dapp,
      ...(receipt?.kind === 'fungible'
        ? { fungibleReceipt: { token: tokenOf(tokens, chainId, receipt.token), amount: receipt.amount > 0n ? receipt.amount.toString() : '' } }
        : {}),
      ...(receipt?.kind === 'nft' ? { nftReceipt: { chainId, contractAddress: receipt.contract, tokenId: receipt.tokenId } } : {}),
      isTrash: token.isSpam,
      displayable: !token.isSpam,
      updatedAt,
      updatedAtBlock: holdings.blockNumber.toString(),
    };
  });
}

/** Every token the rows need metadata for: the assets and the receipt tokens. */
export function tokensOf(balances: readonly WalletBalance[], holdings: readonly ProtocolHoldings[]): { chainId: string; address: string }[] {
  return [
    ...balances.map((balance) => ({ chainId: balance.chainId, address: balance.asset })),
    ...holdings.flatMap(({ chainId, positions }) =>
      positions.flatMap((position) => [
        { chainId, address: position.token },
        ...(position.receipt?.kind === 'fungible' ? [{ chainId, address: position.receipt.token }] : []),
      ]),
    ),
  ];
}
