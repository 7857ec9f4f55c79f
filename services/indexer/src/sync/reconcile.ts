import type { Hash } from 'viem';

export interface BlockRef {
  number: bigint;
  hash: Hash;
}

export interface Header extends BlockRef {
  parentHash: Hash;
}

export type Reorg = { type: 'reorg'; commonAncestor: BlockRef; orphaned: BlockRef[] };

/**
 * How a freshly fetched header relates to the window of canonical headers already emitted.
 * `detached` means the header's parent is not in the window: only the chain itself can tell
 * where the branches meet, which `findCommonAncestor` asks it.
 */
export type Reconciliation = { type: 'extend' } | { type: 'known' } | Reorg | { type: 'detached' };

export type AncestorSearch = Reorg | { type: 'reorg-too-deep' };

/** `window` holds canonical headers in ascending order without gaps. */
export function reconcile(window: readonly BlockRef[], header: Header): Reconciliation {
  const tip = window.at(-1);
  // An empty window has nothing to contradict: the first header defines the chain.
  if (!tip) return { type: 'extend' };
  if (window.some((block) => block.hash === header.hash)) return { type: 'known' };
  if (header.parentHash === tip.hash && header.number === tip.number + 1n) return { type: 'extend' };
  const parentIndex = window.findIndex((block) => block.hash === header.parentHash && block.number === header.number - 1n);
  if (parentIndex === -1 || parentIndex === window.length - 1) return { type: 'detached' };
  return { type: 'reorg', commonAncestor: window[parentIndex]!, orphaned: window.slice(parentIndex + 1) };
}

/**
 * Walks the window down from its tip, asking the chain for its canonical hash at each height; the
 * first height where both agree is the common ancestor. An ancestor search that leaves the window
 * means the reorg reached past what the window keeps, deeper than finality allows.
 */
export async function findCommonAncestor(window: readonly BlockRef[], canonicalHashAt: (number: bigint) => Promise<Hash>): Promise<AncestorSearch> {
  for (let index = window.length - 1; index >= 0; index--) {
    const block = window[index]!;
    if ((await canonicalHashAt(block.number)) === block.hash) {
      return { type: 'reorg', commonAncestor: block, orphaned: window.slice(index + 1) };
    }
  }
  return { type: 'reorg-too-deep' };
}
