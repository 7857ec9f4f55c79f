/**
 * What one wallet did with one fungible (all its implementations together), valued in the
 * request's currency at the moment it happened. Amounts are base units of the fungible.
 */
export type LedgerEntry =
  /** Acquired in a trade: `cost` is the value given up for it, the fee's share included. */
  | { type: 'buy'; amount: bigint; cost: number }
  /** Given up in a trade: `proceeds` is its market value then. */
  | { type: 'sell'; amount: bigint; proceeds: number }
  /** Received from someone else, no trade: a lot at market value. */
  | { type: 'receive'; amount: bigint; value: number }
  /** Sent to someone else, no trade: the oldest lots leave at their cost, nothing is realized. */
  | { type: 'send'; amount: bigint; value: number }
  /** Paid for NFTs: a sale of the fungible at market value. */
  | { type: 'pay-for-nft'; amount: bigint; value: number }
  /** Received for NFTs: a lot at market value. */
  | { type: 'receive-for-nft'; amount: bigint; value: number }
  /** Spent as a transaction fee (the native asset): the oldest lots leave at their cost. */
  | { type: 'fee'; amount: bigint; value: number };

/**
 * A ledger's statistics in the request's currency and whole units of the fungible: what the PnL
 * figures are summed from.
 */
export interface LedgerFigures {
  /** Proceeds of sales less the cost of the lots they consumed. */
  realizedGain: number;
  /** Cost of the lots sales consumed. */
  realizedCostBasis: number;
  /** Cost of every lot opened: buys, receives and NFT sales. */
  totalInvested: number;
  receivedExternal: number;
  sentExternal: number;
  sentForNfts: number;
  receivedForNfts: number;
  /** Fees paid in this fungible, at their value then. */
  fees: number;
  /** Trade buys and sales, for the average prices. */
  boughtUnits: number;
  boughtCost: number;
  soldUnits: number;
  soldProceeds: number;
  /** What the open lots hold and cost: the holding the unrealized gain is measured on. */
  openUnits: number;
  openCost: number;
}

export interface FifoLedger {
  /** Moves the lots as the entry says and adds its flows (gains, costs, values, fees). */
  apply(entry: LedgerEntry): void;
  /** The figures so far: one object, updated in place by later entries (copy what must be kept). */
  figures(): Readonly<LedgerFigures>;
  /** What the open lots hold, exactly, in base units. */
  openAmount(): bigint;
  /** The ledger as it stands, to go back to (a few numbers: lots are never changed, only passed). */
  state(): LedgerState;
  /** Whether the ledger can go back to the state (lots long consumed may have been let go since). */
  canRestore(state: LedgerState): boolean;
  /** Goes back to a state taken earlier, undoing every entry applied since. */
  restore(state: LedgerState): void;
}

interface Lot {
  readonly amount: bigint;
  readonly cost: number;
}

/** Where the lots stood, counted from the first lot ever opened: what `restore` needs. */
export interface LedgerState {
  readonly head: number;
  readonly headLeft: Lot | undefined;
  readonly length: number;
  readonly heldAmount: bigint;
  readonly heldCost: number;
  readonly flows: Readonly<LedgerFigures>;
}

/** `cost` scaled to `part` of `whole`, exact when the part is the whole. */
function share(cost: number, part: bigint, whole: bigint): number {
  if (part === whole) return cost;
  return whole === 0n ? 0 : cost * (Number(part) / Number(whole));
}

/**
 * First in, first out: every acquisition opens a lot at its cost, every disposal consumes the
 * oldest lots first. A disposal beyond the open lots (a balance that arrived without a transfer
 * the ledger saw, such as a genesis allocation or a rebase) consumes nothing for that part: it
 * has no known cost, so a sale of it realizes its whole proceeds. Lots keep exact base units;
 * the figures are numbers, kept as the entries come, so reading them allocates nothing.
 */
export function createFifoLedger(decimals: number): FifoLedger {
  const scale = 10 ** decimals;
  const lots: Lot[] = [];
  // Consumed lots are skipped, not spliced: a wallet of 100,000 trades stays linear.
  let head = 0;
  /** What is left of the lot at `head` once a disposal took part of it; lots themselves never change, so a state is a few numbers. */
  let headLeft: Lot | undefined;
  /** Consumed lots let go from the front of `lots`. */
  let dropped = 0;
  /** What the open lots hold and cost. */
  const held = { amount: 0n, cost: 0 };
  const flows: LedgerFigures = {
    realizedGain: 0,
    realizedCostBasis: 0,
    totalInvested: 0,
    receivedExternal: 0,
    sentExternal: 0,
    sentForNfts: 0,
    receivedForNfts: 0,
    fees: 0,
    boughtUnits: 0,
    boughtCost: 0,
    soldUnits: 0,
    soldProceeds: 0,
    openUnits: 0,
    openCost: 0,
  };

  function open(amount: bigint, cost: number): void {
    lots.push({ amount, cost });
    flows.totalInvested += cost;
    held.amount += amount;
    held.cost += cost;
  }

  /** Takes `amount` from the oldest lots; returns the cost taken. */
  function consume(amount: bigint): number {
    let left = amount;
    let cost = 0;
    while (left > 0n && head < lots.length) {
      const lot = headLeft ?? lots[head]!;
      const taken = lot.amount < left ? lot.amount : left;
      const takenCost = share(lot.cost, taken, lot.amount);
      cost += takenCost;
      left -= taken;
      if (taken === lot.amount) {
        head++;
        headLeft = undefined;
      } else headLeft = { amount: lot.amount - taken, cost: lot.cost - takenCost };
    }
    const consumed = amount - left;
    held.amount -= consumed;
    held.cost = head === lots.length ? 0 : held.cost - cost;
    if (head > 1_024 && head * 2 > lots.length) {
      lots.splice(0, head);
      dropped += head;
      head = 0;
    }
    return cost;
  }

  function sell(amount: bigint, proceeds: number): void {
    const cost = consume(amount);
    flows.realizedGain += proceeds - cost;
    flows.realizedCostBasis += cost;
  }

  function applyEntry(entry: LedgerEntry): void {
    switch (entry.type) {
      case 'buy':
        open(entry.amount, entry.cost);
        flows.boughtUnits += Number(entry.amount) / scale;
        flows.boughtCost += entry.cost;
        return;
      case 'sell':
        sell(entry.amount, entry.proceeds);
        flows.soldUnits += Number(entry.amount) / scale;
        flows.soldProceeds += entry.proceeds;
        return;
      case 'receive':
        open(entry.amount, entry.value);
        flows.receivedExternal += entry.value;
        return;
      case 'send':
        consume(entry.amount);
        flows.sentExternal += entry.value;
        return;
      case 'pay-for-nft':
        sell(entry.amount, entry.value);
        flows.sentForNfts += entry.value;
        return;
      case 'receive-for-nft':
        open(entry.amount, entry.value);
        flows.receivedForNfts += entry.value;
        return;
      case 'fee':
        consume(entry.amount);
        flows.fees += entry.value;
        return;
      default: {
        const unknown: never = entry;
        throw new Error(`unknown ledger entry ${JSON.stringify(unknown)}`);
      }
    }
  }

  return {
    apply(entry) {
      if (entry.amount > 0n) applyEntry(entry);
    },
    figures() {
      flows.openUnits = Number(held.amount) / scale;
      flows.openCost = held.cost;
      return flows;
    },
    openAmount: () => held.amount,
    state: () => ({ head: dropped + head, headLeft, length: dropped + lots.length, heldAmount: held.amount, heldCost: held.cost, flows: { ...flows } }),
    canRestore: (state) => state.head >= dropped,
    restore(state) {
      if (state.head < dropped) throw new Error('the ledger let go of lots this state needs');
      lots.length = state.length - dropped;
      head = state.head - dropped;
      headLeft = state.headLeft;
      held.amount = state.heldAmount;
      held.cost = state.heldCost;
      Object.assign(flows, state.flows);
    },
  };
}
