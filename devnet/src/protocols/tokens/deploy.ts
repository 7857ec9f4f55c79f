import { getAddress, parseUnits } from 'viem';
import { npmArtifact, type Artifact } from '../../compile/index.js';
import type { DeployContext } from '../../world/index.js';
import type { TokenInfo, TokenKind, TokensManifest } from './manifest.js';

interface MintedToken {
  symbol: string;
  name: string;
  decimals: number;
  kind: Exclude<TokenKind, 'weth' | 'spam' | 'fee-on-transfer'>;
  /** Whole tokens minted to the deployer: enough to fund 10,000 wallets and seed every pool. */
  supply: number;
}

const mintedTokens: MintedToken[] = [
  { symbol: 'USDC', name: 'USD Coin', decimals: 6, kind: 'stable', supply: 100_000_000_000 },
  { symbol: 'DAI', name: 'Dai Stablecoin', decimals: 18, kind: 'stable', supply: 100_000_000_000 },
  { symbol: 'WBTC', name: 'Wrapped BTC', decimals: 8, kind: 'btc', supply: 2_000_000 },
  { symbol: 'GOV', name: 'Guild Governance', decimals: 18, kind: 'standard', supply: 1_000_000_000 },
  { symbol: 'FROG', name: 'Frog Coin', decimals: 18, kind: 'standard', supply: 420_000_000_000_000 },
  { symbol: 'YLD', name: 'Yield Protocol', decimals: 18, kind: 'standard', supply: 1_000_000_000 },
];

const feeOnTransfer = { symbol: 'TAX', name: 'Tax Token', supply: 1_000_000_000, feeBps: 100 };

/** Look-alikes of the kind that land in real wallets unasked: a copied symbol, a link in the name. */
const spamTokens = [
  { symbol: 'USDC', name: 'USDC | claim rewards at usdc-airdrop.xyz' },
  { symbol: 'ETHGIFT', name: 'Visit eth-gift.net to claim 5 ETH' },
];

export async function deployTokens(context: DeployContext): Promise<TokensManifest> {
  const { session, artifacts, deployer } = context;
  const artifact = (name: string) => {
    const found = artifacts[name];
    if (!found) throw new Error(`contract ${name} was not compiled`);
    return found;
  };
  const deploy = async (compiled: Artifact, args: readonly unknown[]) => getAddress(await session.deploy(compiled, args, deployer, context.clock()));
  const tokens: TokenInfo[] = [];

  const weth = await deploy(npmArtifact('@uniswap/v2-periphery/build/WETH9.json'), []);
  tokens.push({ symbol: 'WETH', name: 'Wrapped Ether', address: weth, decimals: 18, kind: 'weth' });

  for (const token of mintedTokens) {
    const supply = parseUnits(String(token.supply), token.decimals);
    const args = [token.name, token.symbol, token.decimals, supply, deployer];
    // USDC alone gets EIP-3009 signed transfers (x402 pays with them); same constructor, so every
    // address stays where it was (CREATE addresses follow the deployer's nonce only).
    const address = await deploy(artifact(token.symbol === 'USDC' ? 'DevnetUSDC' : 'DevnetERC20'), args);
    tokens.push({ symbol: token.symbol, name: token.name, address, decimals: token.decimals, kind: token.kind });
  }

  const taxArgs = [feeOnTransfer.name, feeOnTransfer.symbol, parseUnits(String(feeOnTransfer.supply), 18), deployer, BigInt(feeOnTransfer.feeBps)];
  const tax = await deploy(artifact('DevnetFeeOnTransferToken'), taxArgs);
  tokens.push({
    symbol: feeOnTransfer.symbol,
    name: feeOnTransfer.name,
    address: tax,
    decimals: 18,
    kind: 'fee-on-transfer',
    feeBps: feeOnTransfer.feeBps,
    feeRecipient: deployer,
  });

  for (const spam of spamTokens) {
    const address = await deploy(artifact('DevnetSpamToken'), [spam.name, spam.symbol, deployer]);
    tokens.push({ symbol: spam.symbol, name: spam.name, address, decimals: 18, kind: 'spam' });
  }

  return { weth, tokens, walletContractBytecode: artifact('DevnetTipJar').bytecode };
}
