import type { PublicClient } from 'viem';

/**
 * What a chain says its EIP-1559 prices are at `block`, computed here on its own for the tests:
 * eth_feeHistory over the 20 blocks up to `block`, percentiles 10/30/60/90; each speed's tip the
 * lower median of its column over the blocks that used gas; the base fee the last (the next
 * block's) one; max fee twice the base fee plus the tip.
 */
export async function expectedEip1559(client: PublicClient, block: bigint) {
  const history = await client.getFeeHistory({ blockCount: 20, blockNumber: block, rewardPercentiles: [10, 30, 60, 90] });
  const rows = (history.reward ?? []).filter((_row, index) => history.gasUsedRatio[index]! > 0);
  const column = (index: number) => {
    const values = rows.map((row) => row[index]!).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return values.length === 0 ? 0n : values[Math.floor((values.length - 1) / 2)]!;
  };
  const baseFee = history.baseFeePerGas.at(-1)!;
  const speed = (index: number) => ({ priorityFee: column(index), maxFee: 2n * baseFee + column(index) });
  return { baseFee, slow: speed(0), standard: speed(1), fast: speed(2), rapid: speed(3) };
}

/**
 * What a pre-London chain's prices are at `head`: percentiles 10/30/60/90 (nearest rank) of the gas
 * prices the transactions of the 20 blocks up to `head` paid, read here from the blocks; the
 * node's eth_gasPrice for every speed when they hold none.
 */
export async function expectedClassic(client: PublicClient, head: bigint) {
  const paid: bigint[] = [];
  for (let number = head > 19n ? head - 19n : 0n; number <= head; number++) {
    const block = await client.getBlock({ blockNumber: number, includeTransactions: true });
    for (const transaction of block.transactions) paid.push(transaction.gasPrice!);
  }
  if (paid.length === 0) {
    const gasPrice = await client.getGasPrice();
    return { slow: gasPrice, standard: gasPrice, fast: gasPrice, rapid: gasPrice };
  }
  paid.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const at = (percentile: number) => paid[Math.max(1, Math.ceil((percentile / 100) * paid.length)) - 1]!;
  return { slow: at(10), standard: at(30), fast: at(60), rapid: at(90) };
}
