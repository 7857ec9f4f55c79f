import type { TokenRef } from '@wallet-api/core/proto/reference_data';
import type { FungibleDirectory } from '@wallet-api/core/resources';
import { createRecentTokens } from './recent-tokens.js';

const context = { organizationId: 'org', roles: [], addons: [], network: 0 };
const token = (address: string): TokenRef => ({ chainId: 'ethereum', address });

/** A directory that records what it was asked and when, relative to the computation. */
function recordingDirectory(events: string[], fails = false, keepsAnswers = true): FungibleDirectory {
  return {
    keepsAnswers,
    async lookup(_context, currency, tokens) {
      events.push(`lookup ${currency} ${tokens.map((ref) => ref.address).join(',')}`);
      if (fails) throw new Error('reference-data is away');
      await new Promise((resolve) => setTimeout(resolve, 20));
      events.push('lookup answered');
      return [];
    },
  };
}

describe('recent tokens', () => {
  test('the first computation of a wallet looks nothing up; the next looks up what the last one showed while it runs', async () => {
    const events: string[] = [];
    const recent = createRecentTokens({ maxWallets: 10 });
    const lookup = { directory: recordingDirectory(events), context, currency: 'usd' };
    const compute = (shown: string[]) => async () => {
      events.push('compute started');
      await new Promise((resolve) => setTimeout(resolve, 5));
      events.push('compute finished');
      return shown;
    };
    const tokensOf = (shown: string[]) => shown.map(token);

    await recent.alongside('wallet-a', lookup, compute(['0xa', '0xb']), tokensOf);
    expect(events).toEqual(['compute started', 'compute finished']);

    events.length = 0;
    expect(await recent.alongside('wallet-a', lookup, compute(['0xc']), tokensOf)).toEqual(['0xc']);
    // Asked before the computation starts, answered after it ends: the two ran side by side, and
    // the call returned only once the lookup's answers were in the directory.
    expect(events).toEqual(['lookup usd 0xa,0xb', 'compute started', 'compute finished', 'lookup answered']);

    events.length = 0;
    await recent.alongside('wallet-a', lookup, compute([]), tokensOf);
    expect(events).toEqual(['lookup usd 0xc', 'compute started', 'compute finished', 'lookup answered']);
    // A wallet's tokens are its own.
    events.length = 0;
    await recent.alongside('wallet-b', lookup, compute(['0xd']), tokensOf);
    expect(events).toEqual(['compute started', 'compute finished']);
  });

  test('a failed early lookup does not fail the computation, whose own lookup decides', async () => {
    const events: string[] = [];
    const recent = createRecentTokens({ maxWallets: 10 });
    const lookup = { directory: recordingDirectory(events, true), context, currency: 'eur' };
    await recent.alongside(
      'wallet',
      lookup,
      async () => ['0xa'],
      (shown) => shown.map(token),
    );
    await expect(
      recent.alongside(
        'wallet',
        lookup,
        async () => ['0xa'],
        (shown) => shown.map(token),
      ),
    ).resolves.toEqual(['0xa']);
    expect(events).toEqual(['lookup eur 0xa']);
  });

  test("a failed computation is the caller's failure, and leaves the remembered tokens as they were", async () => {
    const events: string[] = [];
    const recent = createRecentTokens({ maxWallets: 10 });
    const lookup = { directory: recordingDirectory(events), context, currency: 'usd' };
    await recent.alongside(
      'wallet',
      lookup,
      async () => ['0xa'],
      (shown) => shown.map(token),
    );
    await expect(
      recent.alongside(
        'wallet',
        lookup,
        async () => Promise.reject(new Error('positions is away')),
        (shown: string[]) => shown.map(token),
      ),
    ).rejects.toThrow('positions is away');
    await new Promise((resolve) => setTimeout(resolve, 40));
    events.length = 0;
    await recent.alongside(
      'wallet',
      lookup,
      async () => ['0xb'],
      (shown) => shown.map(token),
    );
    expect(events).toEqual(['lookup usd 0xa', 'lookup answered']);
  });

  test('a directory that keeps no answers is not asked ahead: its answer would not spare the later lookup', async () => {
    const events: string[] = [];
    const recent = createRecentTokens({ maxWallets: 10 });
    const lookup = { directory: recordingDirectory(events, false, false), context, currency: 'usd' };
    await recent.alongside(
      'wallet',
      lookup,
      async () => ['0xa'],
      (shown) => shown.map(token),
    );
    await recent.alongside(
      'wallet',
      lookup,
      async () => ['0xa'],
      (shown) => shown.map(token),
    );
    expect(events).toEqual([]);
  });

  test('lookAhead looks up what remember last kept for the key, and settles once the answers are in', async () => {
    const events: string[] = [];
    const recent = createRecentTokens({ maxWallets: 10 });
    const lookup = { directory: recordingDirectory(events), context, currency: 'usd' };
    await recent.lookAhead('page', lookup);
    expect(events).toEqual([]);
    recent.remember('page', [token('0xa'), token('0xb')]);
    await recent.lookAhead('page', lookup);
    expect(events).toEqual(['lookup usd 0xa,0xb', 'lookup answered']);
  });
});
