import { parseKeysCreateArgs, UsageError } from './keys-create.js';

describe('parseKeysCreateArgs', () => {
  test.each([
    [['--org', 'acme'], { org: 'acme' }],
    [
      ['--org', 'acme', '--roles', 'rwa, pending-orders', '--addons', 'classification', '--rate-limit', '5', '--burst', '10'],
      { org: 'acme', roles: ['rwa', 'pending-orders'], addons: ['classification'], rateLimitPerSecond: 5, rateLimitBurst: 10 },
    ],
    [['--org=acme', '--roles='], { org: 'acme', roles: [] }],
  ])('%p', (args, expected) => {
    expect(parseKeysCreateArgs(args)).toEqual({
      roles: undefined,
      addons: undefined,
      rateLimitPerSecond: undefined,
      rateLimitBurst: undefined,
      ...expected,
    });
  });

  test.each([
    [[], '--org is required'],
    [['--org'], "Option '--org <value>' argument missing"],
    [['--org', 'acme', '--colour', 'red'], "Unknown option '--colour'"],
    [['--org', 'acme', 'extra'], "Unexpected argument 'extra'"],
    [['--org', 'acme', '--rate-limit', '0'], '--rate-limit must be a positive integer, got "0"'],
    [['--org', 'acme', '--burst', '2.5'], '--burst must be a positive integer, got "2.5"'],
    [['--org', 'acme', '--burst', '1e3'], '--burst must be a positive integer, got "1e3"'],
  ])('%p is a usage error', (args, message) => {
    expect(() => parseKeysCreateArgs(args)).toThrow(UsageError);
    expect(() => parseKeysCreateArgs(args)).toThrow(message);
  });
});
