import type { CallFrame } from '../fetch/block-bundle.js';
import { nativeAsset, type Movement } from './movement.js';

/** Frame types that move value out of `from`; CALLCODE and DELEGATECALL run in the caller's own account. */
const valueMoving = new Set(['CALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT']);

/**
 * Native value moved by a transaction's call tree, in call order, the top-level `tx.value`
 * included as the root frame. A frame with `error` was undone together with everything below it.
 * `createdContract` names the target of a root CREATE whose frame lacks `to`.
 */
export function nativeTransfers(root: CallFrame, createdContract: string): Movement[] {
  const movements: Movement[] = [];
  const visit = (frame: CallFrame, isRoot: boolean) => {
    if (frame.error !== undefined) return;
    const value = frame.value ? BigInt(frame.value) : 0n;
    const recipient = frame.to?.toLowerCase() ?? (isRoot ? createdContract : '');
    if (value > 0n && valueMoving.has(frame.type.toUpperCase()) && recipient !== '') {
      movements.push({ asset: nativeAsset, amount: value, sender: frame.from.toLowerCase(), recipient });
    }
    for (const child of frame.calls ?? []) visit(child, false);
  };
  visit(root, true);
  return movements;
}
