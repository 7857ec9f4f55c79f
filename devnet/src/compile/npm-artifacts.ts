import { createRequire } from 'node:module';
import type { Abi, Hex } from 'viem';
import type { Artifact } from './compile.js';

const require = createRequire(import.meta.url);

/**
 * Published build files of the Uniswap packages, used unchanged: the pair and pool init-code
 * hashes are hard-coded in the routers and the position manager, so recompiling would break them.
 */
export function npmArtifact(path: string): Artifact & { linkReferences?: Record<string, Record<string, { start: number; length: number }[]>> } {
  const json = require(path) as {
    contractName?: string;
    abi: Abi;
    bytecode: string | { object: string };
    linkReferences?: never;
    evm?: { bytecode: { object: string } };
  };
  const raw = typeof json.bytecode === 'string' ? json.bytecode : (json.bytecode?.object ?? json.evm?.bytecode.object ?? '');
  return {
    contractName: json.contractName ?? path.split('/').pop()!.replace('.json', ''),
    abi: json.abi,
    bytecode: (raw.startsWith('0x') ? raw : `0x${raw}`) as Hex,
    ...(json.linkReferences ? { linkReferences: json.linkReferences } : {}),
  };
}
