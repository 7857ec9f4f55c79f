import { WalletTransaction } from '@wallet-api/core/proto/events';
import { createTransactionBodies, decodeBody, encodeBody, identityKey } from './transaction-bodies.js';

const transaction = (index: number): WalletTransaction =>
  WalletTransaction.fromPartial({ chainId: 'ethereum', blockHash: '0xb1', transactionIndex: index, hash: `0x${index}` });

describe('transaction bodies', () => {
  test('a kept body is found by its wallet and identity, whichever object names it, and never for another wallet', () => {
    const bodies = createTransactionBodies();
    const kept = transaction(4);
    bodies.keep(kept, '0xa1', 100);
    expect(bodies.get({ chainId: 'ethereum', blockHash: '0xb1', transactionIndex: 4 }, '0xa1')).toBe(kept);
    expect(bodies.get({ chainId: 'ethereum', blockHash: '0xb1', transactionIndex: 4 }, '0xb2')).toBeUndefined();
    expect(bodies.get({ chainId: 'ethereum', blockHash: '0xb1', transactionIndex: 5 }, '0xa1')).toBeUndefined();
    expect(bodies.get({ chainId: 'base', blockHash: '0xb1', transactionIndex: 4 }, '0xa1')).toBeUndefined();
  });

  test('the least recently read bodies go first once their stored sizes pass the bound', () => {
    const bodies = createTransactionBodies({ maxStoredSize: 250 });
    bodies.keep(transaction(1), '0xa1', 100);
    bodies.keep(transaction(2), '0xa1', 100);
    expect(bodies.get(transaction(1), '0xa1')).toBeDefined();
    bodies.keep(transaction(3), '0xa1', 100);
    expect(bodies.get(transaction(2), '0xa1')).toBeUndefined();
    expect(bodies.get(transaction(1), '0xa1')).toBeDefined();
    expect(bodies.get(transaction(3), '0xa1')).toBeDefined();
  });

  test('identities do not collide across their parts', () => {
    expect(identityKey({ chainId: 'a', blockHash: 'b1', transactionIndex: 2 })).not.toBe(identityKey({ chainId: 'a', blockHash: 'b', transactionIndex: 12 }));
  });

  test('a body decodes to the transaction it was encoded from', () => {
    expect(decodeBody(encodeBody(transaction(7)))).toEqual(transaction(7));
  });
});
