import { encodePacked, maxUint256, type Address, type Hex } from 'viem';

/**
 * One way through the chain's trusted pools: `tokens` from the input token (the wrapped native
 * token for the native asset) to the output token, one pool between each two.
 */
export type SwapRoute =
  | { kind: 'v2'; router: Address; tokens: Address[]; pools: Address[] }
  | { kind: 'v3'; swapRouter: Address; quoter: Address; tokens: Address[]; fees: number[]; pools: Address[] };

/** Uniswap V2 pairs all charge 0.3% of the amount in. */
export const v2FeePips = 3_000;

/** A V3 path: token, fee (uint24), token, ... as the SwapRouter and QuoterV2 read it. */
export function encodeV3Path(tokens: readonly Address[], fees: readonly number[]): Hex {
  if (tokens.length !== fees.length + 1 || fees.length === 0) throw new Error('a V3 path has one fee between each two tokens');
  const types: ('address' | 'uint24')[] = [];
  const values: (Address | number)[] = [];
  tokens.forEach((token, index) => {
    types.push('address');
    values.push(token);
    if (index < fees.length) {
      types.push('uint24');
      values.push(fees[index]!);
    }
  });
  return encodePacked(types, values);
}

/**
 * The share of the amount in the route's pools keep, in percent: each hop takes its fee tier
 * (pips: millionths) of what reaches it.
 */
export function protocolFeePercent(route: SwapRoute): number {
  const fees = route.kind === 'v2' ? route.pools.map(() => v2FeePips) : route.fees;
  const kept = fees.reduce((remaining, fee) => remaining * (1 - fee / 1_000_000), 1);
  return (1 - kept) * 100;
}

/** `output` less the slippage allowed: output x (1 - slippage%), rounded down, to the millionth of a percent. */
export function minimumOutput(output: bigint, slippagePercent: number): bigint {
  const scale = 100_000_000n;
  const kept = scale - BigInt(Math.round(slippagePercent * 1_000_000));
  return (output * kept) / scale;
}

/**
 * A decimal display amount (`1.5`) in base units; undefined when it is not a positive decimal
 * with at most `decimals` fraction digits (no sign, exponent or grouping), or when it is more
 * base units than a uint256 holds (no transaction can move it; the quoter's calls could not encode it).
 */
export function parseDisplayAmount(text: string, decimals: number): bigint | undefined {
  const match = /^(\d{1,78})(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) return undefined;
  const amount = BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  return amount > 0n && amount <= maxUint256 ? amount : undefined;
}

const whole = (amount: bigint, decimals: number) => Number(amount) / 10 ** decimals;

/**
 * How much less the route gives than the one price says the input is worth, in percent (negative
 * when it gives more); undefined without both prices.
 */
export function priceImpactPercent(
  input: { amount: bigint; decimals: number; price: number | undefined },
  output: { amount: bigint; decimals: number; price: number | undefined },
): number | undefined {
  if (!input.price || !output.price) return undefined;
  const fair = (whole(input.amount, input.decimals) * input.price) / output.price;
  return fair > 0 ? (1 - whole(output.amount, output.decimals) / fair) * 100 : undefined;
}

/**
 * The gas cost (`gasWei` of the native asset) in base units of the output asset at the one
 * price; undefined without both prices.
 */
export function gasInOutput(
  gasWei: bigint,
  nativeDecimals: number,
  nativePrice: number | undefined,
  output: { decimals: number; price: number | undefined },
): bigint | undefined {
  if (!nativePrice || !output.price) return undefined;
  const units = (whole(gasWei, nativeDecimals) * nativePrice * 10 ** output.decimals) / output.price;
  return BigInt(Math.ceil(units));
}
