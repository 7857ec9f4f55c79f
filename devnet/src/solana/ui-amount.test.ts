// Cases from agave's account-decoder and spl-token-2022-interface tests.
import { stringifyJson } from './json.js';
import { formatFixedExact, realNumberString, rustF64Display, uiTokenAmount, type ScaledUiAmount } from './ui-amount.js';

const plain = (amount: bigint, decimals: number) => JSON.parse(stringifyJson(uiTokenAmount(amount, { decimals })));

describe('token amounts as the account decoder shows them', () => {
  it.each([
    [1n, 0, { uiAmount: 1, decimals: 0, amount: '1', uiAmountString: '1' }],
    [10n, 0, { uiAmount: 10, decimals: 0, amount: '10', uiAmountString: '10' }],
    [1n, 9, { uiAmount: 0.000000001, decimals: 9, amount: '1', uiAmountString: '0.000000001' }],
    [1_000_000_000n, 9, { uiAmount: 1, decimals: 9, amount: '1000000000', uiAmountString: '1' }],
    [1_234_567_890n, 3, { uiAmount: 1234567.89, decimals: 3, amount: '1234567890', uiAmountString: '1234567.89' }],
    [1_234_567_890n, 20, { uiAmount: null, decimals: 20, amount: '1234567890', uiAmountString: '0.0000000000123456789' }],
    [0n, 9, { uiAmount: 0, decimals: 9, amount: '0', uiAmountString: '0' }],
  ])('%p with %p decimals', (amount, decimals, expected) => {
    expect(plain(amount, decimals)).toEqual(expected);
  });

  it('pads the real number string', () => {
    expect(realNumberString(1_234_567_890n, 25)).toBe('0.0000000000000001234567890');
    expect(realNumberString(1_000_000_000n, 9)).toBe('1.000000000');
  });

  const scaled = (multiplier: number, newMultiplier = multiplier, at = 1n): ScaledUiAmount => ({
    authority: null,
    multiplier,
    newMultiplierEffectiveTimestamp: at,
    newMultiplier,
  });

  it.each([
    [1n, 0, scaled(5), 0n, '5'],
    [1n, 1, scaled(5), 0n, '0.5'],
    [1n, 10, scaled(5), 0n, '0.0000000005'],
    [10_000_000_000n, 10, scaled(5), 0n, '5'],
    [1_000_000_000_000_000_000n, 18, scaled(1, 2, 0n), 0n, '2'],
    [23n, 2, scaled(1), 0n, '0.23'],
    [110n, 2, scaled(1), 0n, '1.1'],
    [2_000_000n, 6, scaled(1, 1.5, 100n), 99n, '2'],
    [2_000_000n, 6, scaled(1, 1.5, 100n), 100n, '3'],
    [18_446_744_073_709_551_615n, 0, scaled(Number.MAX_VALUE), 0n, 'inf'],
  ])('ScaledUiAmount: %p raw, %p decimals at time %p', (amount, decimals, config, unixTimestamp, text) => {
    const result = uiTokenAmount(amount, { decimals, scaled: config, unixTimestamp });
    expect(result.uiAmountString).toBe(text);
    expect(result.uiAmount?.value).toBe(text === 'inf' ? Infinity : Number(text));
  });

  it('InterestBearing: 5% over a year of 365.24 days', () => {
    const year = 6n * 6n * 24n * 36_524n;
    const config = { rateAuthority: null, initializationTimestamp: 0n, preUpdateAverageRate: 500, lastUpdateTimestamp: year, currentRate: 500 };
    const one = uiTokenAmount(1_000_000_000_000_000_000n, { decimals: 18, interestBearing: config, unixTimestamp: year });
    expect(one.uiAmountString.startsWith('1.051271096376024117')).toBe(true);
    expect(Math.abs(one.uiAmount!.value - 1.0512710963760241)).toBeLessThan(Number.EPSILON);
  });

  it.each([
    [0.125, 2, '0.12'],
    [0.375, 2, '0.38'],
    [2.5, 0, '2'],
    [3.5, 0, '4'],
    [1e21, 2, '1000000000000000000000.00'],
    [Infinity, 3, 'inf'],
  ])('formats %p with %p places as Rust does: %s', (value, places, text) => {
    expect(formatFixedExact(value, places)).toBe(text);
  });

  it.each([
    [1, '1'],
    [1.5, '1.5'],
    [1.05, '1.05'],
    [1e-7, '0.0000001'],
    [1e21, '1000000000000000000000'],
  ])('displays the f64 %p as %s', (value, text) => {
    expect(rustF64Display(value)).toBe(text);
  });
});
