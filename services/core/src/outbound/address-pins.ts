import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/**
 * Makes the HTTP client connect only to addresses the outbound URL guard approved. Given to the
 * connector as its DNS lookup, it answers from the pins instead of asking DNS again, which
 * could answer differently (DNS rebinding). TLS still names and verifies the original host.
 */
export interface AddressPins {
  /** Pins host to checked addresses until the returned release is called. */
  pin(host: string, addresses: readonly string[]): () => void;
  lookup: LookupFunction;
}

interface Pin {
  addresses: LookupAddress[];
  holders: number;
}

export function createAddressPins(): AddressPins {
  const pins = new Map<string, Pin>();

  const lookup: LookupFunction = (hostname, options, callback) => {
    const pin = pins.get(hostname);
    const wanted = pin?.addresses.filter((a) => !options.family || a.family === options.family) ?? [];
    const [first] = wanted;
    if (first === undefined) {
      const error = Object.assign(new Error(`no checked address for ${hostname}`), { code: 'ENOTFOUND', hostname });
      return callback(error, '');
    }
    if (options.all) return callback(null, wanted);
    callback(null, first.address, first.family);
  };

  return {
    pin(host, addresses) {
      const pin = pins.get(host) ?? { addresses: [], holders: 0 };
      // Concurrent posts may pin different answers; all were checked, so the latest may serve any.
      pin.addresses = addresses.map((address) => ({ address, family: isIP(address) }));
      pin.holders += 1;
      pins.set(host, pin);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        pin.holders -= 1;
        if (pin.holders === 0) pins.delete(host);
      };
    },
    lookup,
  };
}
