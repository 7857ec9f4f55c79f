import { decodeAbiParameters, hexToString, size, type Hex } from 'viem';

export type ContractTokenInterface = 'erc20' | 'erc721' | 'erc1155';

/** What a contract answered to the token calls; `undefined` where the call reverted or answered garbage. */
export interface TokenAnswers {
  name?: string;
  symbol?: string;
  decimals?: number;
  erc721: boolean;
  erc1155: boolean;
}

export interface ContractTokenMetadata {
  interface: ContractTokenInterface;
  name: string;
  symbol: string;
  decimals: number;
}

// Control characters and stray NUL padding make a name unusable in JSON output and in look-alike checks.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
export const cleanText = (text: string) => text.replace(/[\u0000-\u001f\u007f]/g, '').trim();

/**
 * Decodes the result of `name()` or `symbol()`: an ABI string, or a `bytes32` as early tokens (MKR,
 * SAI) return. Undefined when the data is neither.
 */
export function decodeTokenText(data: Hex): string | undefined {
  const length = size(data);
  if (length === 32) return cleanText(hexToString(data, { size: 32 }));
  if (length < 64) return undefined;
  try {
    const [text] = decodeAbiParameters([{ type: 'string' }], data);
    return cleanText(text);
  } catch {
    return undefined;
  }
}

/** Decodes `decimals()`; a value that does not fit the uint8 the standard declares is treated as absent. */
export function decodeDecimals(data: Hex): number | undefined {
  if (size(data) !== 32) return undefined;
  const value = BigInt(data);
  return value <= 255n ? Number(value) : undefined;
}

/** Decodes `supportsInterface(id)`: exactly the ABI encoding of `true`, as ERC-165 requires. */
export function decodeSupportsInterface(data: Hex): boolean {
  return size(data) === 32 && BigInt(data) === 1n;
}

/**
 * The token a contract is, from its answers: an ERC-165 NFT interface wins, then `decimals()`
 * makes a fungible. A contract with neither is not a token (undefined), whatever name it has.
 */
export function tokenMetadataFromAnswers(answers: TokenAnswers): ContractTokenMetadata | undefined {
  const name = answers.name ?? '';
  const symbol = answers.symbol ?? '';
  if (answers.erc1155) return { interface: 'erc1155', name, symbol, decimals: 0 };
  if (answers.erc721) return { interface: 'erc721', name, symbol, decimals: 0 };
  if (answers.decimals !== undefined) return { interface: 'erc20', name, symbol, decimals: answers.decimals };
  return undefined;
}
