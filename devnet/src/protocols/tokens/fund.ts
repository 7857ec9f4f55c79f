import { encodeFunctionData, type Address } from 'viem';
import type { ActionContext } from '../../world/index.js';
import { erc20Abi } from './abis.js';
import { logUniformUnits, humanAmount } from './amounts.js';
import { tokenBySymbol, type TokensManifest } from './manifest.js';

/** Who gets what when joining: chance of holding the token and the range in whole tokens. */
export const startingHoldings = [
  { symbol: 'USDC', chance: 0.8, min: 50, max: 50_000 },
  { symbol: 'DAI', chance: 0.45, min: 20, max: 20_000 },
  { symbol: 'WBTC', chance: 0.35, min: 0.001, max: 2 },
  { symbol: 'GOV', chance: 0.4, min: 10, max: 25_000 },
  { symbol: 'FROG', chance: 0.3, min: 100_000, max: 5_000_000_000 },
  { symbol: 'YLD', chance: 0.35, min: 1, max: 4_000 },
  { symbol: 'TAX', chance: 0.25, min: 100, max: 200_000 },
];

export const erc20TransferGas = 120_000n;

/**
 * Sends a new wallet a random handful of tokens from the deployer (its ETH comes from the world
 * builder). Every wallet gets at least some USDC, so every wallet can move a token.
 */
export async function fundWallet(context: ActionContext, manifest: TokensManifest, wallet: Address): Promise<void> {
  const { rng } = context;
  let chosen = startingHoldings.filter((holding) => rng.chance(holding.chance));
  if (chosen.length === 0) chosen = [startingHoldings[0]!];
  for (const holding of chosen) {
    const token = tokenBySymbol(manifest, holding.symbol);
    const amount = humanAmount(rng, logUniformUnits(rng, holding.min, holding.max, token.decimals));
    await context.session.send({
      from: context.deployer,
      to: token.address,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [wallet, amount] }),
      gas: erc20TransferGas,
    });
  }
}
