import { blockSeconds, defaultBlockSeconds, maxBlockSeconds } from './block-time.js';

const at = (number: number, timestamp: number) => ({ number: BigInt(number), timestamp: BigInt(timestamp) });

describe('blockSeconds', () => {
  test.each([
    ['no points', [], defaultBlockSeconds],
    ['one point', [at(5, 100)], defaultBlockSeconds],
    ['a span of 20 blocks', [at(0, 0), at(20, 240)], 12],
    ['spans over skipped blocks count per block', [at(10, 100), at(11, 102), at(14, 108), at(15, 110)], 2],
    ['one long pause does not move the median', [at(1, 0), at(2, 2), at(3, 4), at(4, 86_404), at(5, 86_406)], 2],
    ['sub-second blocks are one second', [at(1, 10), at(3, 10)], 1],
    ['days between blocks are capped', [at(1, 0), at(2, 86_400)], maxBlockSeconds],
  ])('%s', (_name, points, expected) => {
    expect(blockSeconds(points)).toBe(expected);
  });
});
