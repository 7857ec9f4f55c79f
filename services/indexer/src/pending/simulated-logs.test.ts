import { simulatedLogs, type LoggedCallFrame } from './simulated-logs.js';

const log = (name: string, position: number) => ({
  address: '0x01' as const,
  topics: [],
  data: `0x${name}` as `0x${string}`,
  position: `0x${position.toString(16)}` as `0x${string}`,
});
const frame = (fields: Partial<LoggedCallFrame>): LoggedCallFrame => ({
  type: 'CALL',
  from: '0x02',
  to: '0x01',
  gas: '0x0',
  gasUsed: '0x0',
  input: '0x',
  ...fields,
});

describe('the logs of a traced simulation in receipt order', () => {
  test('interleaved with child calls by position; a reverted frame and its children leave none', () => {
    const root = frame({
      logs: [log('a0', 0), log('a2', 2), log('a1', 1)],
      calls: [
        frame({ logs: [log('b0', 0)], calls: [frame({ logs: [log('c0', 0)] })] }),
        frame({ error: 'execution reverted', logs: [log('x0', 0)], calls: [frame({ logs: [log('x1', 0)] })] }),
      ],
    });
    expect(simulatedLogs(root).map((entry) => entry.data)).toEqual(['0xa0', '0xb0', '0xc0', '0xa1', '0xa2']);
  });

  test('a reverted transaction has no logs', () => {
    expect(simulatedLogs(frame({ error: 'execution reverted', logs: [log('a0', 0)] }))).toEqual([]);
  });
});
