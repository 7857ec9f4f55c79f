import type { LookupAddress, LookupOptions } from 'node:dns';
import { createAddressPins, type AddressPins } from './address-pins.js';

type Answer = { error?: string; address?: string | LookupAddress[]; family?: number };

const ask = (pins: AddressPins, host: string, options: LookupOptions) =>
  new Promise<Answer>((resolve) => pins.lookup(host, options, (error, address, family) => resolve(error ? { error: error.message } : { address, family })));

describe('createAddressPins', () => {
  const pins = createAddressPins();
  pins.pin('hooks.example.com', ['2606:4700::1', '93.184.216.34']);

  it.each([
    { name: 'single answer: first pinned', options: {}, expected: { address: '2606:4700::1', family: 6 } },
    { name: 'single answer for IPv4', options: { family: 4 }, expected: { address: '93.184.216.34', family: 4 } },
    {
      name: 'all answers (happy eyeballs)',
      options: { all: true },
      expected: {
        address: [
          { address: '2606:4700::1', family: 6 },
          { address: '93.184.216.34', family: 4 },
        ],
        family: undefined,
      },
    },
    {
      name: 'all answers of one family',
      options: { all: true, family: 4 },
      expected: { address: [{ address: '93.184.216.34', family: 4 }], family: undefined },
    },
  ])('$name', async ({ options, expected }) => {
    expect(await ask(pins, 'hooks.example.com', options)).toEqual(expected);
  });

  it('refuses a host nobody pinned rather than asking DNS', async () => {
    expect(await ask(pins, 'other.example.com', {})).toEqual({ error: 'no checked address for other.example.com' });
  });

  it('keeps a pin until its last holder releases it', async () => {
    const local = createAddressPins();
    const releaseA = local.pin('a.example', ['8.8.8.8']);
    const releaseB = local.pin('a.example', ['8.8.4.4']);
    expect(await ask(local, 'a.example', {})).toEqual({ address: '8.8.4.4', family: 4 });
    releaseA();
    releaseA();
    expect(await ask(local, 'a.example', {})).toEqual({ address: '8.8.4.4', family: 4 });
    releaseB();
    expect(await ask(local, 'a.example', {})).toEqual({ error: 'no checked address for a.example' });
  });
});
