// The devnet world served over RPC: every block in every encoding and detail level, every
// wallet's signatures and token accounts answer without error, and every instruction the world
// sends is parsed by jsonParsed except the compute-budget ones, which a node leaves unparsed too.
import { createSolanaLedger } from './ledger.js';
import { handleRpcBody } from './rpc-server.js';
import { buildSolanaWorld } from './world.js';

describe('the devnet world over RPC', () => {
  it('answers every block, signature list and token account list', async () => {
    const ledger = createSolanaLedger();
    const world = await buildSolanaWorld(ledger, { seed: 'rpc-world', walletCount: 8, endTimestamp: 1_790_000_000, days: 20 });
    const failures: string[] = [];
    const call = async (method: string, params: unknown[]) => {
      const text = await handleRpcBody(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), { ledger }, (error) =>
        failures.push(`${method}: ${String(error)}`),
      );
      const response = JSON.parse(text) as { result?: unknown; error?: unknown };
      if (response.error) failures.push(`${method} ${JSON.stringify(params).slice(0, 120)}: ${JSON.stringify(response.error)}`);
      return response.result as Record<string, unknown>;
    };
    const unparsed = new Set<string>();
    for (let slot = 0n; slot <= ledger.head()!.slot; slot++) {
      for (const encoding of ['json', 'jsonParsed', 'base64', 'base58']) {
        for (const transactionDetails of ['full', 'accounts', 'signatures']) {
          const block = await call('getBlock', [Number(slot), { encoding, transactionDetails, maxSupportedTransactionVersion: 0 }]);
          if (encoding !== 'jsonParsed' || transactionDetails !== 'full') continue;
          for (const transaction of block.transactions as {
            transaction: { message: { instructions: Record<string, unknown>[] } };
            meta: { innerInstructions: { instructions: Record<string, unknown>[] }[] };
          }[]) {
            const instructions = [
              ...transaction.transaction.message.instructions,
              ...transaction.meta.innerInstructions.flatMap((entry) => entry.instructions),
            ];
            for (const instruction of instructions) if (!('parsed' in instruction)) unparsed.add(String(instruction.programId));
          }
        }
      }
    }
    for (const wallet of world.wallets) {
      const signatures = (await call('getSignaturesForAddress', [wallet.address])) as unknown as { signature: string }[];
      expect(signatures.length).toBeGreaterThan(0);
      await call('getTransaction', [signatures[0]!.signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 }]);
      for (const programId of ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb']) {
        for (const encoding of ['jsonParsed', 'base64']) await call('getTokenAccountsByOwner', [wallet.address, { programId }, { encoding }]);
      }
    }
    for (const mint of world.mints) await call('getAccountInfo', [mint.address, { encoding: 'jsonParsed' }]);
    expect(failures).toEqual([]);
    expect([...unparsed]).toEqual(['ComputeBudget111111111111111111111111111111']);
  }, 120_000);
});
