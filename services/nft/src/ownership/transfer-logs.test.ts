import { encodeAbiParameters, numberToHex, type Hex } from 'viem';
import {
  addressTopic,
  newestReceipts,
  receivedTokens,
  transferBatchTopic,
  transferSingleTopic,
  transferTopic,
  type RawLog,
  type ReceivedToken,
} from './transfer-logs.js';

const contract = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';
const from = '0x1111111111111111111111111111111111111111';
const to = '0x2222222222222222222222222222222222222222';
const operator = '0x3333333333333333333333333333333333333333';
const maxUint256 = 2n ** 256n - 1n;

const uint256Topic = (value: bigint): Hex => numberToHex(value, { size: 32 });
const singleData = (id: bigint, value: bigint) => encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [id, value]);
const batchData = (ids: bigint[], values: bigint[]) => encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [ids, values]);

const log = (overrides: Partial<RawLog>): RawLog => ({
  address: contract,
  topics: [],
  data: '0x',
  blockNumber: '0x64',
  ...overrides,
});

const erc721Topics = (tokenId: bigint): Hex[] => [transferTopic, addressTopic(from), addressTopic(to), uint256Topic(tokenId)];
const erc1155Topics = (topic: Hex): Hex[] => [topic, addressTopic(operator), addressTopic(from), addressTopic(to)];

const received = (tokenId: string, standard: ReceivedToken['standard'], extra: Partial<ReceivedToken> = {}): ReceivedToken => ({
  contract: contract.toLowerCase(),
  tokenId,
  standard,
  blockNumber: 100n,
  ...extra,
});

describe('receivedTokens', () => {
  it.each<{ name: string; log: RawLog; expected: ReceivedToken[] }>([
    { name: 'an ERC-721 Transfer (4 topics), token id in decimal', log: log({ topics: erc721Topics(42n) }), expected: [received('42', 'erc721')] },
    { name: 'an ERC-721 Transfer of token 0', log: log({ topics: erc721Topics(0n) }), expected: [received('0', 'erc721')] },
    {
      name: 'an ERC-721 Transfer of the largest token id',
      log: log({ topics: erc721Topics(maxUint256) }),
      expected: [received(maxUint256.toString(), 'erc721')],
    },
    {
      name: 'an ERC-20 Transfer (3 topics, amount in data)',
      log: log({ topics: [transferTopic, addressTopic(from), addressTopic(to)], data: encodeAbiParameters([{ type: 'uint256' }], [10n ** 18n]) }),
      expected: [],
    },
    { name: 'a TransferSingle', log: log({ topics: erc1155Topics(transferSingleTopic), data: singleData(7n, 3n) }), expected: [received('7', 'erc1155')] },
    {
      name: 'a TransferBatch',
      log: log({ topics: erc1155Topics(transferBatchTopic), data: batchData([1n, 2n, maxUint256], [5n, 1n, 1n]) }),
      expected: [received('1', 'erc1155'), received('2', 'erc1155'), received(maxUint256.toString(), 'erc1155')],
    },
    { name: 'an empty TransferBatch', log: log({ topics: erc1155Topics(transferBatchTopic), data: batchData([], []) }), expected: [] },
    { name: 'a TransferSingle with empty data', log: log({ topics: erc1155Topics(transferSingleTopic), data: '0x' }), expected: [] },
    {
      name: 'a TransferSingle with truncated data',
      log: log({ topics: erc1155Topics(transferSingleTopic), data: singleData(7n, 3n).slice(0, 66) as Hex }),
      expected: [],
    },
    { name: 'a TransferBatch with empty data', log: log({ topics: erc1155Topics(transferBatchTopic), data: '0x' }), expected: [] },
    { name: 'a TransferBatch whose data is a TransferSingle', log: log({ topics: erc1155Topics(transferBatchTopic), data: singleData(7n, 3n) }), expected: [] },
    {
      name: 'a TransferBatch whose array length runs past the data',
      log: log({
        topics: erc1155Topics(transferBatchTopic),
        data: `0x${64n.toString(16).padStart(64, '0')}${128n.toString(16).padStart(64, '0')}${'f'.repeat(64)}`,
      }),
      expected: [],
    },
    { name: 'a TransferSingle with 3 topics', log: log({ topics: erc1155Topics(transferSingleTopic).slice(0, 3), data: singleData(7n, 3n) }), expected: [] },
    {
      name: 'an ERC-721 Transfer with a token id topic that is not hex',
      log: log({ topics: [transferTopic, addressTopic(from), addressTopic(to), '0xnothex' as Hex] }),
      expected: [],
    },
    {
      name: 'another event',
      log: log({ topics: ['0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925', addressTopic(from), addressTopic(to), uint256Topic(1n)] }),
      expected: [],
    },
    { name: 'a log without topics', log: log({ topics: [] }), expected: [] },
    { name: 'a pending ERC-721 Transfer (null block number)', log: log({ topics: erc721Topics(42n), blockNumber: null }), expected: [] },
    {
      name: 'a pending TransferBatch (null block number)',
      log: log({ topics: erc1155Topics(transferBatchTopic), data: batchData([1n], [1n]), blockNumber: null }),
      expected: [],
    },
    { name: 'a block number given as a bigint', log: log({ topics: erc721Topics(42n), blockNumber: 100n }), expected: [received('42', 'erc721')] },
    {
      name: 'a hex block timestamp',
      log: log({ topics: erc721Topics(42n), blockTimestamp: '0x6553f100' }),
      expected: [received('42', 'erc721', { blockTimestamp: 1700000000n })],
    },
    {
      name: 'a bigint block timestamp',
      log: log({ topics: erc721Topics(42n), blockTimestamp: 1700000000n }),
      expected: [received('42', 'erc721', { blockTimestamp: 1700000000n })],
    },
    {
      name: 'a block timestamp of 0',
      log: log({ topics: erc721Topics(42n), blockTimestamp: '0x0' }),
      expected: [received('42', 'erc721', { blockTimestamp: 0n })],
    },
    {
      name: 'a block timestamp on every token of a batch',
      log: log({ topics: erc1155Topics(transferBatchTopic), data: batchData([1n, 2n], [1n, 1n]), blockTimestamp: 1700000000n }),
      expected: [received('1', 'erc1155', { blockTimestamp: 1700000000n }), received('2', 'erc1155', { blockTimestamp: 1700000000n })],
    },
  ])('$name', ({ log, expected }) => {
    const tokens = receivedTokens(log);
    expect(tokens).toEqual(expected);
  });

  it.each([
    { name: 'absent', blockTimestamp: undefined },
    { name: 'null', blockTimestamp: null },
  ])('leaves blockTimestamp out when it is $name', ({ blockTimestamp }) => {
    const [token] = receivedTokens(log({ topics: erc721Topics(1n), blockTimestamp }));
    expect(token).toBeDefined();
    expect(token).not.toHaveProperty('blockTimestamp');
  });

  it('does not throw on any malformed data', () => {
    const garbage: Hex[] = ['0x', '0x00', '0x1234', `0x${'ff'.repeat(64)}`, `0x${'00'.repeat(31)}20${'ff'.repeat(32)}`];
    for (const data of garbage) {
      for (const topic of [transferSingleTopic, transferBatchTopic]) {
        expect(() => receivedTokens(log({ topics: erc1155Topics(topic), data }))).not.toThrow();
      }
    }
  });
});

describe('newestReceipts', () => {
  const token = (contractAddress: string, tokenId: string, blockNumber: bigint): ReceivedToken => ({
    contract: contractAddress,
    tokenId,
    standard: 'erc721',
    blockNumber,
  });
  const a = '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
  const b = '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
  const byKey = (x: ReceivedToken, y: ReceivedToken) => `${x.contract}:${x.tokenId}`.localeCompare(`${y.contract}:${y.tokenId}`);

  it.each<{ name: string; tokens: ReceivedToken[]; expected: ReceivedToken[] }>([
    { name: 'nothing', tokens: [], expected: [] },
    { name: 'one token', tokens: [token(a, '1', 5n)], expected: [token(a, '1', 5n)] },
    { name: 'the newest of one token, older first', tokens: [token(a, '1', 5n), token(a, '1', 9n)], expected: [token(a, '1', 9n)] },
    { name: 'the newest of one token, newer first', tokens: [token(a, '1', 9n), token(a, '1', 5n), token(a, '1', 7n)], expected: [token(a, '1', 9n)] },
    { name: 'one of a token received twice in one block', tokens: [token(a, '1', 5n), token(a, '1', 5n)], expected: [token(a, '1', 5n)] },
    {
      name: 'the same token id of two contracts apart',
      tokens: [token(a, '1', 5n), token(b, '1', 3n), token(b, '1', 8n)],
      expected: [token(a, '1', 5n), token(b, '1', 8n)],
    },
    {
      name: 'two token ids of one contract apart',
      tokens: [token(a, '1', 5n), token(a, '2', 3n), token(a, '1', 4n), token(a, '2', 6n)],
      expected: [token(a, '1', 5n), token(a, '2', 6n)],
    },
  ])('keeps $name', ({ tokens, expected }) => {
    expect([...newestReceipts(tokens)].sort(byKey)).toEqual([...expected].sort(byKey));
  });

  it('keeps the newest receipt whole, timestamp and standard included', () => {
    const older: ReceivedToken = { contract: a, tokenId: '1', standard: 'erc1155', blockNumber: 5n, blockTimestamp: 50n };
    const newer: ReceivedToken = { contract: a, tokenId: '1', standard: 'erc1155', blockNumber: 6n, blockTimestamp: 60n };
    expect(newestReceipts([newer, older])).toEqual([newer]);
  });
});

describe('addressTopic', () => {
  it.each([
    { address: '0x2222222222222222222222222222222222222222', topic: `0x${'0'.repeat(24)}2222222222222222222222222222222222222222` },
    { address: contract, topic: `0x${'0'.repeat(24)}abcdef0123456789abcdef0123456789abcdef01` },
    { address: '0xABCDEF0123456789ABCDEF0123456789ABCDEF01', topic: `0x${'0'.repeat(24)}abcdef0123456789abcdef0123456789abcdef01` },
    { address: '0x0000000000000000000000000000000000000000', topic: `0x${'0'.repeat(64)}` },
  ])('$address -> $topic', ({ address, topic }) => {
    expect(addressTopic(address)).toBe(topic);
    expect(addressTopic(address)).toHaveLength(66);
  });
});
