import { numberToHex, toEventSelector, type PublicClient, type RpcTransactionReceipt } from 'viem';

// A FIFO profit-and-loss written from the pnl service's contract alone (see
// pnl-world.int.test.ts), over movements read straight from the chain's blocks, receipts and call
// traces: nothing of the indexer's decoding or the service's ledger is shared, so an agreement
// between the two is evidence, not an echo.

/** A fungible moved: `asset` '' is the chain's native asset, else the token's lowercase address. */
export interface FungibleMovement {
  asset: string;
  from: string;
  to: string;
  amount: bigint;
}

export interface WorldTransaction {
  chainId: string;
  blockNumber: number;
  timestamp: number;
  index: number;
  hash: string;
  from: string;
  /** gasUsed * effectiveGasPrice, in the native asset's base units. */
  fee: bigint;
  /** A UserOperationEvent of the receipt names a non-zero paymaster: the sender pays no fee. */
  paymasterPaid: boolean;
  fungibles: FungibleMovement[];
  nfts: { from: string; to: string }[];
}

interface CallFrame {
  type: string;
  from: string;
  to?: string;
  value?: string;
  error?: string;
  calls?: CallFrame[];
}

const zeroAddress = '0x0000000000000000000000000000000000000000';
const selectors = {
  transfer: toEventSelector('Transfer(address,address,uint256)'),
  transferSingle: toEventSelector('TransferSingle(address,address,address,uint256,uint256)'),
  transferBatch: toEventSelector('TransferBatch(address,address,address,uint256[],uint256[])'),
  deposit: toEventSelector('Deposit(address,uint256)'),
  withdrawal: toEventSelector('Withdrawal(address,uint256)'),
  userOperation: toEventSelector('UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)'),
};
/** Frame types that move value from `from` to `to` (DELEGATECALL and STATICCALL only echo their parent's). */
const valueMovingFrames = new Set(['CALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT']);

const topicAddress = (topic: string) => `0x${topic.slice(26)}`.toLowerCase();
const firstWord = (data: string) => BigInt(data.slice(0, 66));

/** Native value moved by the frames of a call tree that did not revert (an error undoes the frame and its children). */
function nativeMovements(frame: CallFrame, createdContract: string | undefined, out: FungibleMovement[]): void {
  if (frame.error) return;
  const value = frame.value ? BigInt(frame.value) : 0n;
  const to = frame.to ?? createdContract;
  if (value > 0n && valueMovingFrames.has(frame.type) && to) out.push({ asset: '', from: frame.from.toLowerCase(), to: to.toLowerCase(), amount: value });
  for (const child of frame.calls ?? []) nativeMovements(child, undefined, out);
}

/** Every transaction of blocks 0..endBlock, with its movements as the raw chain data shows them. */
export function readWorldTransactions(client: PublicClient, chainId: string, endBlock: number): Promise<WorldTransaction[]> {
  return readBlockTransactions(
    client,
    chainId,
    Array.from({ length: endBlock + 1 }, (_, number) => number),
  );
}

/** Every transaction of the blocks `numbers`, in their order, with its movements as the raw chain data shows them. */
export async function readBlockTransactions(client: PublicClient, chainId: string, numbers: readonly number[]): Promise<WorldTransaction[]> {
  const readBlock = async (number: number): Promise<WorldTransaction[]> => {
    const [block, receipts, traces] = await Promise.all([
      client.getBlock({ blockNumber: BigInt(number), includeTransactions: true }),
      client.request({ method: 'eth_getBlockReceipts' as never, params: [numberToHex(number)] as never }) as Promise<RpcTransactionReceipt[]>,
      client.request({ method: 'debug_traceBlockByNumber' as never, params: [numberToHex(number), { tracer: 'callTracer' }] as never }) as Promise<
        { result: CallFrame }[]
      >,
    ]);
    return block.transactions.map((transaction, index) => {
      const receipt = receipts[index]!;
      const succeeded = receipt.status === '0x1';
      const fungibles: FungibleMovement[] = [];
      const nfts: { from: string; to: string }[] = [];
      // A reverted transaction moves nothing (its receipt has no logs, its root frame an error).
      if (succeeded) nativeMovements(traces[index]!.result, receipt.contractAddress ?? undefined, fungibles);
      let paymasterPaid = false;
      for (const log of receipt.logs) {
        const [topic0, ...rest] = log.topics;
        const asset = log.address.toLowerCase();
        if (topic0 === selectors.transfer && rest.length === 2 && log.data.length >= 66) {
          fungibles.push({ asset, from: topicAddress(rest[0]!), to: topicAddress(rest[1]!), amount: firstWord(log.data) });
        } else if (topic0 === selectors.transfer && rest.length === 3) {
          nfts.push({ from: topicAddress(rest[0]!), to: topicAddress(rest[1]!) });
        } else if ((topic0 === selectors.transferSingle || topic0 === selectors.transferBatch) && rest.length === 3) {
          nfts.push({ from: topicAddress(rest[1]!), to: topicAddress(rest[2]!) });
        } else if (topic0 === selectors.deposit && rest.length === 1) {
          fungibles.push({ asset, from: zeroAddress, to: topicAddress(rest[0]!), amount: firstWord(log.data) });
        } else if (topic0 === selectors.withdrawal && rest.length === 1) {
          fungibles.push({ asset, from: topicAddress(rest[0]!), to: zeroAddress, amount: firstWord(log.data) });
        } else if (topic0 === selectors.userOperation && rest.length === 3 && topicAddress(rest[2]!) !== zeroAddress) {
          paymasterPaid = true;
        }
      }
      return {
        chainId,
        blockNumber: number,
        timestamp: Number(block.timestamp),
        index,
        hash: transaction.hash,
        from: transaction.from.toLowerCase(),
        fee: BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice),
        paymasterPaid,
        fungibles,
        nfts,
      };
    });
  };
  const transactions: WorldTransaction[] = [];
  for (let start = 0; start < numbers.length; start += 16) {
    for (const block of await Promise.all(numbers.slice(start, start + 16).map(readBlock))) transactions.push(...block);
  }
  return transactions;
}

/** The contract's order of a wallet's transactions across chains. */
export const historyOrder = (a: WorldTransaction, b: WorldTransaction) =>
  a.timestamp - b.timestamp || a.blockNumber - b.blockNumber || a.index - b.index || (a.chainId < b.chainId ? -1 : a.chainId > b.chainId ? 1 : 0);

/** What one transaction did to the wallet: fungibles netted per asset, NFT flags, the fee it paid. */
export interface WalletStep {
  transaction: WorldTransaction;
  /** Per asset ('' native), the wallet's net; never 0. */
  nets: Map<string, bigint>;
  nftIn: boolean;
  nftOut: boolean;
  /** 0n when someone else (or a paymaster) paid. */
  fee: bigint;
  paysFee: boolean;
}

/** The wallet's steps, in `transactions`' order, for every transaction that moved its fungibles or made it pay a fee. */
export function walletSteps(wallet: string, transactions: readonly WorldTransaction[]): WalletStep[] {
  const steps: WalletStep[] = [];
  for (const transaction of transactions) {
    const nets = new Map<string, bigint>();
    for (const { asset, from, to, amount } of transaction.fungibles) {
      if (from === to) continue; // a self-transfer moves nothing
      if (from === wallet) nets.set(asset, (nets.get(asset) ?? 0n) - amount);
      if (to === wallet) nets.set(asset, (nets.get(asset) ?? 0n) + amount);
    }
    for (const [asset, net] of nets) if (net === 0n) nets.delete(asset);
    const nfts = transaction.nfts.filter(({ from, to }) => from !== to);
    const paysFee = transaction.from === wallet && !transaction.paymasterPaid;
    if (nets.size === 0 && !paysFee) continue;
    steps.push({
      transaction,
      nets,
      nftIn: nfts.some(({ to }) => to === wallet),
      nftOut: nfts.some(({ from }) => from === wallet),
      fee: paysFee ? transaction.fee : 0n,
      paysFee,
    });
  }
  return steps;
}

/** Reference data the replay needs, answered synchronously (looked up beforehand). */
export interface AssetFacts {
  /** Ledger key and decimals of an asset that counts; undefined for one that does not. */
  counting(chainId: string, address: string): { key: string; decimals: number } | undefined;
  /** The implementation's price at unix seconds; undefined without one. */
  priceAt(chainId: string, address: string, timestamp: number): number | undefined;
}

export interface Window {
  since?: number;
  till?: number;
}

/** Flows: what a window's transactions add (rule 10), per ledger. */
export interface Flows {
  realizedGain: number;
  realizedCostBasis: number;
  totalFee: number;
  totalInvested: number;
  receivedExternal: number;
  sentExternal: number;
  sentForNfts: number;
  receivedForNfts: number;
  boughtUnits: number;
  boughtCost: number;
  soldUnits: number;
  soldProceeds: number;
}

export interface Ledger {
  key: string;
  decimals: number;
  /** `<chainId>:<address>` of the implementations the wallet moved, first moved first. */
  implementations: string[];
  /** Open lots, oldest first: base units and their cost. */
  lots: { amount: bigint; cost: number }[];
  flows: Flows;
  /** Time of the first movement at which the fungible had no value; undefined when always priced. */
  firstUnpriced?: number;
}

const noFlows = (): Flows => ({
  realizedGain: 0,
  realizedCostBasis: 0,
  totalFee: 0,
  totalInvested: 0,
  receivedExternal: 0,
  sentExternal: 0,
  sentForNfts: 0,
  receivedForNfts: 0,
  boughtUnits: 0,
  boughtCost: 0,
  soldUnits: 0,
  soldProceeds: 0,
});

/** Takes `amount` from the oldest lots (a partly taken lot gives its cost pro rata); beyond the open lots there is no cost. */
function consume(ledger: Ledger, amount: bigint): number {
  let left = amount;
  let cost = 0;
  while (left > 0n && ledger.lots.length > 0) {
    const lot = ledger.lots[0]!;
    if (lot.amount <= left) {
      cost += lot.cost;
      left -= lot.amount;
      ledger.lots.shift();
    } else {
      const taken = (lot.cost * Number(left)) / Number(lot.amount);
      cost += taken;
      lot.cost -= taken;
      lot.amount -= left;
      left = 0n;
    }
  }
  return cost;
}

interface Leg {
  address: string;
  amount: bigint;
  units: number;
  ledger?: Ledger;
  value?: number;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** Rule 6: a side's unvalued legs share what the other side, all valued, is worth beyond this side's valued legs. */
function valueByTrade(side: Leg[], other: readonly Leg[]): void {
  const missing = side.filter((leg) => leg.value === undefined);
  if (missing.length === 0 || other.some((leg) => leg.value === undefined)) return;
  const share = Math.max(0, sum(other.map((leg) => leg.value!)) - sum(side.filter((leg) => leg.value !== undefined).map((leg) => leg.value!))) / missing.length;
  for (const leg of missing) leg.value = share;
}

/**
 * Replays the wallet's steps (in history order) into one ledger per fungible key. Steps after
 * `till` still name their ledgers and unpriced times (the fungible exists for the wallet), but move
 * nothing; only the flows of steps at or after `since` count.
 */
export function replay(steps: readonly WalletStep[], facts: AssetFacts, window: Window = {}): Map<string, Ledger> {
  const ledgers = new Map<string, Ledger>();
  for (const step of steps) {
    const { chainId, timestamp } = step.transaction;
    const moves = timestamp <= (window.till ?? Infinity);
    const counted = moves && timestamp >= (window.since ?? -Infinity);
    const ledgerOf = (address: string): Ledger | undefined => {
      const asset = facts.counting(chainId, address);
      if (!asset) return undefined;
      let ledger = ledgers.get(asset.key);
      if (!ledger) ledgers.set(asset.key, (ledger = { key: asset.key, decimals: asset.decimals, implementations: [], lots: [], flows: noFlows() }));
      if (!ledger.implementations.includes(`${chainId}:${address}`)) ledger.implementations.push(`${chainId}:${address}`);
      return ledger;
    };
    const leg = (address: string, amount: bigint): Leg => {
      const ledger = ledgerOf(address);
      const units = ledger ? Number(amount) / 10 ** ledger.decimals : 0;
      const price = ledger ? facts.priceAt(chainId, address, timestamp) : undefined;
      return { address, amount, units, ledger, value: price === undefined ? undefined : units * price };
    };

    // Rule 3: the fee leaves the oldest native lots first; its value joins a trade's cost.
    const fee = step.paysFee ? leg('', step.fee) : undefined;
    const given = [...step.nets].filter(([, net]) => net < 0n).map(([address, net]) => leg(address, -net));
    const got = [...step.nets].filter(([, net]) => net > 0n).map(([address, net]) => leg(address, net));
    const trade = given.length > 0 && got.length > 0;
    if (trade) {
      valueByTrade(given, got);
      valueByTrade(got, given);
    }
    for (const { ledger, value } of [...given, ...got]) if (ledger && value === undefined) ledger.firstUnpriced ??= timestamp;
    if (!moves) continue;

    const flows = (ledger: Ledger | undefined): Flows => (counted && ledger ? ledger.flows : noFlows());
    const feeValue = fee?.value ?? 0;
    if (fee?.ledger) {
      consume(fee.ledger, fee.amount);
      flows(fee.ledger).totalFee += feeValue;
    }
    if (trade) {
      for (const sale of given) {
        if (!sale.ledger) continue;
        const cost = consume(sale.ledger, sale.amount);
        const proceeds = sale.value ?? 0;
        const into = flows(sale.ledger);
        into.realizedGain += proceeds - cost;
        into.realizedCostBasis += cost;
        into.soldUnits += sale.units;
        into.soldProceeds += proceeds;
      }
      const paid = sum(given.map((sale) => sale.value ?? 0)) + feeValue;
      const gotWorth = sum(got.map((buy) => buy.value ?? 0));
      for (const buy of got) {
        if (!buy.ledger) continue;
        const cost = gotWorth > 0 ? (paid * (buy.value ?? 0)) / gotWorth : paid / got.length;
        buy.ledger.lots.push({ amount: buy.amount, cost });
        const into = flows(buy.ledger);
        into.totalInvested += cost;
        into.boughtUnits += buy.units;
        into.boughtCost += cost;
      }
    } else {
      for (const sent of given) {
        if (!sent.ledger) continue;
        const cost = consume(sent.ledger, sent.amount);
        const into = flows(sent.ledger);
        if (step.nftIn) {
          into.realizedGain += (sent.value ?? 0) - cost;
          into.realizedCostBasis += cost;
          into.sentForNfts += sent.value ?? 0;
        } else {
          into.sentExternal += sent.value ?? 0;
        }
      }
      for (const received of got) {
        if (!received.ledger) continue;
        received.ledger.lots.push({ amount: received.amount, cost: received.value ?? 0 });
        const into = flows(received.ledger);
        into.totalInvested += received.value ?? 0;
        if (step.nftOut) into.receivedForNfts += received.value ?? 0;
        else into.receivedExternal += received.value ?? 0;
      }
    }
  }
  return ledgers;
}

export interface Figures {
  totalGain: number;
  realizedGain: number;
  unrealizedGain: number;
  relativeTotalGainPercentage: number;
  relativeRealizedGainPercentage: number;
  relativeUnrealizedGainPercentage: number;
  totalFee: number;
  totalInvested: number;
  realizedCostBasis: number;
  netInvested: number;
  receivedExternal: number;
  sentExternal: number;
  sentForNfts: number;
  receivedForNfts: number;
}

const percentage = (part: number, whole: number) => (whole === 0 ? 0 : (part / whole) * 100);

/** Rule 8: the ledgers' flows summed, their open lots valued at each key's price now. */
export function figuresOf(ledgers: readonly Ledger[], priceNow: (key: string) => number): Figures {
  const total = (field: keyof Flows) => sum(ledgers.map((ledger) => ledger.flows[field]));
  const openCost = (ledger: Ledger) => sum(ledger.lots.map((lot) => lot.cost));
  const openUnits = (ledger: Ledger) => Number(ledger.lots.reduce((units, lot) => units + lot.amount, 0n)) / 10 ** ledger.decimals;
  const netInvested = sum(ledgers.map(openCost));
  const unrealizedGain = sum(ledgers.map((ledger) => openUnits(ledger) * priceNow(ledger.key) - openCost(ledger)));
  const realizedGain = total('realizedGain');
  const realizedCostBasis = total('realizedCostBasis');
  const totalInvested = total('totalInvested');
  return {
    totalGain: realizedGain + unrealizedGain,
    realizedGain,
    unrealizedGain,
    relativeTotalGainPercentage: percentage(realizedGain + unrealizedGain, totalInvested),
    relativeRealizedGainPercentage: percentage(realizedGain, realizedCostBasis),
    relativeUnrealizedGainPercentage: percentage(unrealizedGain, netInvested),
    totalFee: total('totalFee'),
    totalInvested,
    realizedCostBasis,
    netInvested,
    receivedExternal: total('receivedExternal'),
    sentExternal: total('sentExternal'),
    sentForNfts: total('sentForNfts'),
    receivedForNfts: total('receivedForNfts'),
  };
}

/** The breakdown's per-unit prices of a ledger's trade buys and sales (0 when none). */
export function averagePricesOf(ledger: Ledger): { averageBuyPrice: number; averageSellPrice: number } {
  const { boughtUnits, boughtCost, soldUnits, soldProceeds } = ledger.flows;
  return { averageBuyPrice: boughtUnits === 0 ? 0 : boughtCost / boughtUnits, averageSellPrice: soldUnits === 0 ? 0 : soldProceeds / soldUnits };
}
