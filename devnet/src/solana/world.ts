// A Solana chain's world: the same seed always gives the same keys, the same transactions in the
// same blocks at the same times, hence the same signatures and (on a fresh ledger) the same
// blockhashes, so the JSON-RPC server can rebuild at every start the world a `devnet world` run
// described in the manifest.
import { lamports, type Address, type KeyPairSigner } from '@solana/kit';
import { SYSTEM_PROGRAM_ADDRESS, getTransferSolInstruction } from '@solana-program/system';
import { createRng, type Rng } from '../world/rng.js';
import type { SolanaLedger } from './ledger-types.js';
import { closeBonkAccount, planWalletAction } from './world-actions.js';
import { availableWallets, createWorldSender, type PlannedTransaction, type SendOutcome, type SolanaWorldContext } from './world-context.js';
import {
  grants,
  planFailure,
  planGrant,
  planIssuerFunding,
  planMintCreation,
  planMultiplierUpdate,
  planSpamAirdrop,
  planSpamStock,
  spamRecipientsPerTransaction,
  type GrantKey,
  type PlannedFailureKind,
} from './world-issuers.js';
import { seededSigner, solanaWalletSigners } from './world-keys.js';
import type { SolanaWalletRecord, SolanaWorldManifest } from './world-manifest.js';
import { createAtaLookup, solanaMintSpecs, tokenProgramAddress, type SolanaMint, type SolanaMintKey } from './world-mints.js';

export interface SolanaWorldOptions {
  seed: string;
  walletCount: number;
  /** Unix seconds of the last block. */
  endTimestamp: number;
  /** Days of wallet activity before `endTimestamp` (the mints are created the day before). */
  days: number;
  /** Chain id (default `solana`): the wallets and issuers are the same on every Solana chain of a world, the mints and the activity differ. */
  id?: string;
  /** Recorded in the manifest (default the `solana` chain's `http://127.0.0.1:18899`). */
  rpcUrl?: string;
}

const day = 86_400;
/** The funder's genesis balance: a million SOL, set on the account before the first block. */
export const funderGenesisLamports = 1_000_000n * 1_000_000_000n;
/** Average number of own actions per wallet over the history (fixed: the manifest's options alone must rebuild the world). */
const actionsPerWallet = 8;
/** ScaledUiAmount multipliers after the mint's initial 1: a 5% distribution, then a 2-for-1 split. */
export const scaledMultiplierSteps = [1.05, 2.1] as const;
const failurePlan: { share: number; kind: PlannedFailureKind }[] = [
  { share: 0.55, kind: 'usdc-overdraft' },
  { share: 0.65, kind: 'scaled-overdraft' },
  { share: 0.9, kind: 'sol-overdraft' },
];

function activityTimeline(rng: Rng, blocks: number, start: number, end: number): number[] {
  const span = (end - start) / blocks;
  const times = Array.from({ length: blocks }, (_, index) => Math.floor(start + span * (index + rng.next() * 0.9)) + index);
  times[times.length - 1] = end;
  return times;
}

/**
 * Builds the world on a fresh ledger: the funder (pre-funded at genesis) funds the issuers, each
 * mint's own authority creates it, wallets join over the first 40% of the history with SOL from
 * the funder and are granted tokens by the issuers, then act block by block (SOL and token
 * transfers, account closes, spam clean-ups), while the spammer airdrops twice, the ScaledUiAmount
 * multiplier changes twice and a few transactions fail as planned. Several transactions per block,
 * a wallet at most once per block; about a third of the transactions carry a priority fee.
 */
export async function buildSolanaWorld(ledger: SolanaLedger, options: SolanaWorldOptions): Promise<SolanaWorldManifest> {
  const id = options.id ?? 'solana';
  const rng = createRng(`${options.seed}/${id}`);
  const genesis = options.endTimestamp - (options.days + 1) * day;
  const funder = await seededSigner(options.seed, 'funder');
  const wallets = await solanaWalletSigners(options.seed, options.walletCount);
  const mintKeys = new Map<SolanaMintKey, KeyPairSigner>();
  const mints = {} as Record<SolanaMintKey, SolanaMint>;
  for (const spec of solanaMintSpecs) {
    const mintKey = await seededSigner(options.seed, `${id}/mint/${spec.key}`);
    mintKeys.set(spec.key, mintKey);
    const authority = await seededSigner(options.seed, `issuer/${spec.key}`);
    mints[spec.key] = { ...spec, address: mintKey.address, programAddress: tokenProgramAddress(spec.program), authority };
  }

  ledger.svm.setAccount({
    address: funder.address,
    lamports: lamports(funderGenesisLamports),
    data: new Uint8Array(0),
    executable: false,
    programAddress: SYSTEM_PROGRAM_ADDRESS,
    space: 0n,
  });

  const context: SolanaWorldContext = { ledger, rng: rng.fork('actions'), funder, mints, ata: createAtaLookup(), time: genesis, joined: [], busy: new Set() };
  const records = new Map<Address, SolanaWalletRecord>();
  const totals = { sent: 0, failed: 0, withPriorityFee: 0 };
  const onSent = (outcome: SendOutcome) => {
    totals.sent++;
    if (outcome.err !== null && outcome.err !== undefined) totals.failed++;
    if (outcome.priorityFee) totals.withPriorityFee++;
    const slot = Number(ledger.openSlot());
    for (const { wallet, label } of outcome.planned.labels) {
      context.busy.add(wallet);
      const record = records.get(wallet) ?? { address: wallet, labels: [], joinedAtSlot: slot };
      records.set(wallet, record);
      if (!record.labels.includes(label)) record.labels.push(label);
      if (outcome.priorityFee && wallet === outcome.planned.feePayer.address && !record.labels.includes('compute-budget:priority-fee')) {
        record.labels.push('compute-budget:priority-fee');
      }
    }
  };
  const send = createWorldSender(ledger, rng.fork('transactions'), onSent);
  const sendAll = async (planned: readonly PlannedTransaction[]) => {
    for (const transaction of planned) await send(transaction);
  };
  const block = async (time: number, fill: () => Promise<void>) => {
    context.time = time;
    context.busy = new Set();
    // Programs read the clock (the multiplier's effective time): it shows the block's own time.
    ledger.svm.setClock(Object.assign(ledger.svm.getClock(), { unixTimestamp: BigInt(time) }));
    await fill();
    return ledger.seal(time);
  };

  // The day before the activity: issuers funded, mints created, the spammer's stock minted.
  await block(genesis + 60, () => sendAll(solanaMintSpecs.map((spec) => planIssuerFunding(context, mints[spec.key].authority))));
  const createdAt = genesis + 72;
  await block(createdAt, () => sendAll(solanaMintSpecs.map((spec) => planMintCreation(context, mints[spec.key], mintKeys.get(spec.key)!))));
  await block(genesis + 84, async () => sendAll([await planSpamStock(context)]));

  const perBlock = Math.max(4, Math.min(100, Math.ceil(options.walletCount / 2)));
  const blockCount = Math.max(24, Math.ceil((options.walletCount * actionsPerWallet) / perBlock));
  const timeline = activityTimeline(rng.fork('timeline'), blockCount, genesis + day, options.endTimestamp);
  const joinRng = rng.fork('join');
  const joinIndex = wallets.map((_, index) => (index < 2 ? 0 : joinRng.int(0, Math.floor(blockCount * 0.4))));
  const grantRng = rng.fork('grants');
  const pendingGrants = new Map<Address, GrantKey[]>(
    wallets.map((wallet) => [wallet.address, grantRng.shuffle((Object.keys(grants) as GrantKey[]).filter((key) => grantRng.chance(grants[key].share)))]),
  );
  const updateAt = new Map(scaledMultiplierSteps.map((multiplier, index) => [Math.floor(blockCount * (0.35 * (index + 1))), multiplier]));
  const spamAt = new Set([Math.floor(blockCount * 0.5), Math.floor(blockCount * 0.8)]);
  const failures = failurePlan.map((entry) => ({ at: Math.floor(blockCount * entry.share), kind: entry.kind }));
  const ensureCloseAt = Math.floor(blockCount * 0.85);
  const multipliers = [{ multiplier: '1', effectiveTimestamp: createdAt }];
  let closes = 0;
  const joined: KeyPairSigner[] = [];
  context.joined = joined;

  for (let index = 0; index < blockCount; index++) {
    const time = timeline[index]!;
    await block(time, async () => {
      const newcomers = wallets.filter((_, walletIndex) => joinIndex[walletIndex] === index);
      for (const wallet of newcomers) {
        const amount = context.rng.bigint(2n * 10n ** 9n, 25n * 10n ** 9n);
        await send({
          feePayer: funder,
          instructions: [getTransferSolInstruction({ source: funder, destination: wallet.address, amount })],
          labels: [{ wallet: wallet.address, label: 'faucet:receive-sol' }],
        });
      }
      for (const wallet of availableWallets(context)) {
        const key = pendingGrants.get(wallet.address)?.shift();
        if (key) await send(await planGrant(context, key, wallet));
      }
      const multiplier = updateAt.get(index);
      if (multiplier !== undefined) {
        const effectiveTimestamp = timeline[Math.min(index + 2, blockCount - 1)]!;
        await send(planMultiplierUpdate(context, multiplier, effectiveTimestamp));
        multipliers.push({ multiplier: String(multiplier), effectiveTimestamp });
      }
      if (spamAt.has(index)) {
        const recipients = availableWallets(context).filter(() => context.rng.chance(0.8));
        for (let start = 0; start < recipients.length; start += spamRecipientsPerTransaction) {
          await send(await planSpamAirdrop(context, recipients.slice(start, start + spamRecipientsPerTransaction)));
        }
      }
      for (const failure of failures.filter((entry) => entry.at <= index)) {
        const planned = await planFailure(context, failure.kind);
        if (!planned) continue;
        await send(planned);
        failures.splice(failures.indexOf(failure), 1);
      }
      if (index >= ensureCloseAt && closes === 0) {
        for (const wallet of availableWallets(context)) {
          const planned = await closeBonkAccount.plan(context, wallet);
          if (!planned) continue;
          await send(planned);
          closes++;
          break;
        }
      }
      const active = context.rng.shuffle(availableWallets(context)).slice(0, perBlock);
      for (const wallet of active) {
        if (context.busy.has(wallet.address)) continue;
        const planned = await planWalletAction(context, wallet);
        if (!planned) continue;
        await send(planned);
        if (planned.labels[0]?.label === closeBonkAccount.kind) closes++;
      }
      joined.push(...newcomers);
    });
  }

  const end = ledger.head()!;
  return {
    id,
    seed: options.seed,
    walletCount: options.walletCount,
    days: options.days,
    endTimestamp: end.blockTime,
    rpcUrl: options.rpcUrl ?? 'http://127.0.0.1:18899',
    funder: funder.address,
    mints: solanaMintSpecs.map((spec) => {
      const mint = mints[spec.key];
      return {
        key: spec.key,
        address: mint.address,
        program: spec.program,
        decimals: spec.decimals,
        symbol: spec.symbol,
        name: spec.name,
        kind: spec.kind,
        authority: mint.authority.address,
        ...(spec.metadataUri !== undefined ? { metadataUri: spec.metadataUri } : {}),
        ...(spec.scaled ? { multipliers } : {}),
      };
    }),
    wallets: [...records.values()].sort((a, b) => a.joinedAtSlot - b.joinedAtSlot || a.address.localeCompare(b.address)),
    endSlot: Number(end.slot),
    endBlockhash: end.blockhash,
    transactions: totals,
  };
}
