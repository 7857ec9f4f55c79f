// Probe: what the Token-2022 program bundled with LiteSVM supports of the extensions the world
// uses (ScaledUiAmount with a timed multiplier, MetadataPointer + TokenMetadata), straight on a
// LiteSVM without the ledger.
import { LiteSVM } from 'litesvm';
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import * as token2022 from '@solana-program/token-2022';
import { seededSigner } from './world-keys.js';
import {
  createAtaInstruction,
  createAtaLookup,
  createMintInstructions,
  mintToInstruction,
  tokenAccountAmount,
  tokenProgramAddress,
  transferInstruction,
  type SolanaMint,
  type SolanaMintSpec,
} from './world-mints.js';

describe('LiteSVM Token-2022', () => {
  let svm: LiteSVM;
  let payer: KeyPairSigner;

  const setTime = (unixTimestamp: number) => svm.setClock(Object.assign(svm.getClock(), { unixTimestamp: BigInt(unixTimestamp) }));
  const send = async (instructions: Instruction[]) => {
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (draft) => setTransactionMessageFeePayerSigner(payer, draft),
      (draft) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: svm.latestBlockhash(), lastValidBlockHeight: 0n }, draft),
      (draft) => appendTransactionMessageInstructions(instructions, draft),
    );
    const result = svm.sendTransaction(await signTransactionMessageWithSigners(message));
    svm.expireBlockhash();
    if ('err' in result) throw new Error(`${String(result.err())}\n${result.meta().logs().join('\n')}`);
    return result;
  };
  const extensions = (mint: Address) => {
    const account = svm.getAccount(mint);
    if (!account.exists) throw new Error('no mint');
    const decoded = token2022.getMintDecoder().decode(account.data as Uint8Array);
    return decoded.extensions.__option === 'Some' ? decoded.extensions.value : [];
  };
  const createMint = async (spec: SolanaMintSpec, label: string): Promise<SolanaMint> => {
    const key = await seededSigner('probe', `mint/${label}`);
    const authority = await seededSigner('probe', `authority/${label}`);
    svm.airdrop(authority.address, lamports(10n ** 10n));
    await send(createMintInstructions(spec, key, authority, (space) => svm.minimumBalanceForRentExemption(space)));
    return { ...spec, address: key.address, programAddress: tokenProgramAddress(spec.program), authority };
  };

  beforeEach(async () => {
    svm = new LiteSVM();
    payer = await seededSigner('probe', 'payer');
    svm.airdrop(payer.address, lamports(10n ** 12n));
  });

  test('supports ScaledUiAmount: a new multiplier waits for its effective time, the next update promotes it', async () => {
    setTime(1_000);
    const mint = await createMint({ key: 'scaled', program: 'token-2022', decimals: 6, symbol: 'S', name: 'Scaled', scaled: true, kind: 'standard' }, 'scaled');
    const update = (multiplier: number, effectiveTimestamp: bigint) =>
      send([token2022.getUpdateMultiplierScaledUiMintInstruction({ mint: mint.address, authority: mint.authority, multiplier, effectiveTimestamp })]);
    const config = () => extensions(mint.address).find((extension) => extension.__kind === 'ScaledUiAmountConfig');

    expect(config()).toMatchObject({ multiplier: 1, newMultiplier: 1, newMultiplierEffectiveTimestamp: 0n });
    await update(1.05, 2_000n);
    expect(config()).toMatchObject({ multiplier: 1, newMultiplier: 1.05, newMultiplierEffectiveTimestamp: 2_000n });
    setTime(2_500);
    await update(2.1, 3_000n);
    expect(config()).toMatchObject({ multiplier: 1.05, newMultiplier: 2.1, newMultiplierEffectiveTimestamp: 3_000n });
    // An effective time already past applies at once.
    await update(3, 100n);
    expect(config()).toMatchObject({ multiplier: 3, newMultiplier: 3, newMultiplierEffectiveTimestamp: 100n });

    // Raw amounts are untouched by the multiplier; plain Transfer works on the mint.
    const ata = createAtaLookup();
    const holder = await seededSigner('probe', 'holder');
    const [from, to] = [await ata(mint.authority.address, mint), await ata(holder.address, mint)];
    await send([
      createAtaInstruction(payer, mint.authority.address, from, mint),
      createAtaInstruction(payer, holder.address, to, mint),
      mintToInstruction(mint, from, 5_000_000n),
      transferInstruction(mint, from, to, mint.authority, 1_250_000n),
    ]);
    const amount = (address: Address) => {
      const account = svm.getAccount(address);
      return account.exists ? tokenAccountAmount(account.data as Uint8Array) : undefined;
    };
    expect([amount(from), amount(to)]).toEqual([3_750_000n, 1_250_000n]);
  });

  test('supports MetadataPointer + TokenMetadata: initialize, then update a field', async () => {
    const spec: SolanaMintSpec = {
      key: 'meta',
      program: 'token-2022',
      decimals: 9,
      symbol: 'DMETA',
      name: 'Devnet Meta Token',
      metadataUri: 'https://metadata.devnet.invalid/m.json',
      kind: 'standard',
    };
    const mint = await createMint(spec, 'meta');
    expect(extensions(mint.address)).toEqual([
      { __kind: 'MetadataPointer', authority: { __option: 'Some', value: mint.authority.address }, metadataAddress: { __option: 'Some', value: mint.address } },
      {
        __kind: 'TokenMetadata',
        updateAuthority: { __option: 'Some', value: mint.authority.address },
        mint: mint.address,
        name: spec.name,
        symbol: spec.symbol,
        uri: spec.metadataUri,
        additionalMetadata: new Map(),
      },
    ]);
    svm.airdrop(mint.address, lamports(10_000_000n)); // rent for the longer name
    await send([
      token2022.getUpdateTokenMetadataFieldInstruction({
        metadata: mint.address,
        updateAuthority: mint.authority,
        field: token2022.tokenMetadataField('Name'),
        value: 'Devnet Meta Token v2',
      }),
    ]);
    expect(extensions(mint.address)[1]).toMatchObject({ name: 'Devnet Meta Token v2' });
  });

  test("supports both at once on one mint (the world's scaled mint carries its metadata)", async () => {
    const mint = await createMint(
      {
        key: 'scaled',
        program: 'token-2022',
        decimals: 6,
        symbol: 'DSTKx',
        name: 'Devnet Stock xStock',
        metadataUri: 'https://metadata.devnet.invalid/s.json',
        scaled: true,
        kind: 'standard',
      },
      'both',
    );
    expect(extensions(mint.address).map((extension) => extension.__kind)).toEqual(['ScaledUiAmountConfig', 'MetadataPointer', 'TokenMetadata']);
  });
});
