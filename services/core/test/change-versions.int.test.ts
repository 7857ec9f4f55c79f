// Change tokens against the real Redis: which reads each kind of change reaches.
import { currentVersion, sharedVersion, unpricedVersion, type ChangeVersions, type WalletData } from '../src/cache/index.js';
import { setupChangeVersions } from '../src/testing/index.js';

const allWalletData: readonly WalletData[] = ['history', 'holdings'];

describe('change tokens in Redis', () => {
  let versions: ChangeVersions;
  let close: () => void;
  const wallet = '0x00000000000000000000000000000000000000aa';
  const other = '0x00000000000000000000000000000000000000bb';

  beforeAll(() => {
    ({ versions, close } = setupChangeVersions());
  });
  afterAll(() => close());

  async function reads() {
    const split = await versions.everythingAndPrices();
    return {
      current: await versions.current(wallet, allWalletData),
      unpriced: unpricedVersion(await versions.walletTokens(wallet, allWalletData)),
      history: await versions.current(wallet, ['history']),
      holdings: await versions.current(wallet, ['holdings']),
      unpricedHistory: unpricedVersion(await versions.walletTokens(wallet, ['history'])),
      other: await versions.current(other, allWalletData),
      everything: await versions.everything(),
      rollbacksOnly: split.everything,
      pricesOnly: split.prices,
    };
  }

  test('a wallet change reaches that wallet only, whatever the case of its address, and only reads of the kind of data it changed', async () => {
    const before = await reads();
    await versions.walletsChanged([wallet.toUpperCase().replace('0X', '0x')], 'holdings');
    const after = await reads();
    expect(after.current).not.toBe(before.current);
    expect(after.unpriced).not.toBe(before.unpriced);
    expect(after.holdings).not.toBe(before.holdings);
    expect([after.history, after.unpricedHistory]).toEqual([before.history, before.unpricedHistory]);
    expect(after.other).toBe(before.other);
    expect(after.everything).toBe(before.everything);
    expect([after.rollbacksOnly, after.pricesOnly]).toEqual([before.rollbacksOnly, before.pricesOnly]);

    await versions.walletsChanged([wallet], 'history');
    const afterHistory = await reads();
    expect(afterHistory.history).not.toBe(after.history);
    expect(afterHistory.unpricedHistory).not.toBe(after.unpricedHistory);
    expect(afterHistory.current).not.toBe(after.current);
    expect(afterHistory.holdings).toBe(after.holdings);
  });

  test("a wallet set's tokens are each wallet's in turn, read at once: a change of either wallet reaches the set", async () => {
    const set = async () => currentVersion(await versions.walletTokens([wallet, other], ['holdings']));
    const [alone, otherAlone] = await Promise.all([versions.walletTokens(wallet, ['holdings']), versions.walletTokens(other, ['holdings'])]);
    expect(await versions.walletTokens([wallet, other], ['holdings'])).toEqual({ ...alone, wallet: [...alone.wallet, ...otherAlone.wallet] });
    const before = await set();
    await versions.walletsChanged([other], 'history');
    expect(await set()).toBe(before);
    await versions.walletsChanged([other], 'holdings');
    const afterOther = await set();
    expect(afterOther).not.toBe(before);
    await versions.walletsChanged([wallet], 'holdings');
    expect(await set()).not.toBe(afterOther);
  });

  test('a price move reaches valued answers and market data, not unpriced ones', async () => {
    const before = await reads();
    await versions.pricesChanged();
    const after = await reads();
    expect(after.current).not.toBe(before.current);
    expect(after.other).not.toBe(before.other);
    expect(after.everything).not.toBe(before.everything);
    expect([after.unpriced, after.unpricedHistory]).toEqual([before.unpriced, before.unpricedHistory]);
    expect(after.pricesOnly).not.toBe(before.pricesOnly);
    expect(after.rollbacksOnly).toBe(before.rollbacksOnly);
  });

  test('an NFT market move reaches valued NFT reads alone: not their holdings, nor any fungible answer', async () => {
    const before = await reads();
    const nftsBefore = await versions.walletTokens(wallet, ['nfts']);
    await versions.nftMarketChanged();
    const after = await reads();
    const nftsAfter = await versions.walletTokens(wallet, ['nfts']);
    expect(after).toEqual(before);
    expect(currentVersion(nftsAfter)).not.toBe(currentVersion(nftsBefore));
    expect(unpricedVersion(nftsAfter)).toBe(unpricedVersion(nftsBefore));
    expect(nftsAfter.wallet).toHaveLength(1);

    // A fungible price move still reaches NFT reads too: their values are in the request's currency.
    await versions.pricesChanged();
    expect(currentVersion(await versions.walletTokens(wallet, ['nfts']))).not.toBe(currentVersion(nftsAfter));
  });

  test('a rollback reaches every read', async () => {
    const before = await reads();
    await versions.everythingChanged();
    const after = await reads();
    for (const key of ['current', 'unpriced', 'history', 'holdings', 'unpricedHistory', 'other', 'everything', 'rollbacksOnly'] as const)
      expect([key, after[key]]).not.toEqual([key, before[key]]);
  });

  test("one read of a wallet's tokens forms the same versions as the reads of each", async () => {
    await versions.walletsChanged([wallet], 'history');
    const tokens = await versions.walletTokens(wallet, ['history']);
    expect(currentVersion(tokens)).toBe(await versions.current(wallet, ['history']));
    expect(sharedVersion(tokens)).toBe(await versions.everything());
    expect(unpricedVersion(tokens)).toBe(`${tokens.everything}/${tokens.wallet[0]}`);
    expect(tokens.wallet).toHaveLength(1);
  });
});

test('a price move prepares under the tokens it then puts in force', async () => {
  const { versions, close } = setupChangeVersions();
  try {
    const before = await versions.everythingAndPrices();
    let prepared: { everything: string; prices: string } | undefined;
    let inForceWhilePreparing: { everything: string; prices: string } | undefined;
    await versions.pricesChanged(async (tokens) => {
      prepared = tokens;
      inForceWhilePreparing = await versions.everythingAndPrices();
    });
    expect(inForceWhilePreparing).toEqual(before);
    expect(await versions.everythingAndPrices()).toEqual(prepared);
    expect(prepared!.prices).not.toBe(before.prices);
  } finally {
    close();
  }
});
