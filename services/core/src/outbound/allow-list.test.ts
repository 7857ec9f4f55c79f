import { parseAddress } from './address-range.js';
import { allowsAddress, allowsHost, parseAllowList } from './allow-list.js';

const describeRules = (text: string) =>
  parseAllowList(text).map((rule) => (rule.kind === 'host' ? `host ${rule.host}` : `range ${rule.network.toString()}/${rule.prefixLength}`));

describe('parseAllowList', () => {
  it.each([
    { text: '', expected: [] },
    { text: ' , ', expected: [] },
    { text: 'loopback', expected: ['range 127.0.0.0/8', 'range ::1/128', 'host localhost'] },
    { text: '10.0.0.0/8, fd00::/8', expected: ['range 10.0.0.0/8', 'range fd00::/8'] },
    { text: '10.1.2.3,fd00::5', expected: ['range 10.1.2.3/32', 'range fd00::5/128'] },
    { text: 'Hooks.Internal.Example.', expected: ['host hooks.internal.example'] },
  ])('parses "$text"', ({ text, expected }) => {
    expect(describeRules(text)).toEqual(expected);
  });

  it.each([
    '10.0.0.0/33',
    '::/129',
    '10.0.0.0/',
    '10.0.0.0/8/1',
    '10.0.0.0/x',
    'hooks.example:8080',
    'https://hooks.example',
    '10.0.0',
    '0x7f.1',
    '*.example.com',
  ])('rejects "%s"', (text) => {
    expect(() => parseAllowList(text)).toThrow(`allow-list entry "${text}" is not "loopback"`);
  });

  it('names the setting in the error', () => {
    expect(() => parseAllowList('10.0.0', 'callback allow-list')).toThrow('callback allow-list entry "10.0.0"');
  });
});

describe('allowsAddress', () => {
  const rules = parseAllowList('loopback,10.0.0.0/8,fd00::/8,192.168.1.7');
  it.each([
    ['127.0.0.1', true],
    ['127.9.9.9', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.255.0.1', true],
    ['fd00::1', true],
    ['192.168.1.7', true],
    ['192.168.1.8', false],
    ['11.0.0.1', false],
    ['fe80::1', false],
    ['::2', false],
  ])('%s -> %p', (text, expected) => {
    expect(allowsAddress(rules, parseAddress(text)!)).toBe(expected);
  });
});

describe('allowsHost', () => {
  const rules = parseAllowList('loopback,hooks.internal.example');
  it.each([
    ['localhost', true],
    ['LOCALHOST.', true],
    ['hooks.internal.example', true],
    ['evil.hooks.internal.example', false],
    ['hooks.internal.example.evil', false],
    ['example.com', false],
  ])('%s -> %p', (host, expected) => {
    expect(allowsHost(rules, host)).toBe(expected);
  });
});
