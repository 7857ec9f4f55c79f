import { AddressKind } from '@wallet-api/core/proto/reference_data';
import { classifyFromChains, type OnChainKind } from './address-kind.js';

const address = '0x2b187d58bbd15bc6bd274097863f043d4ae13df6';

describe('address classification', () => {
  test.each([
    [['none', 'none'], AddressKind.ADDRESS_KIND_EOA, true],
    [[], AddressKind.ADDRESS_KIND_EOA, true],
    [['none', 'safe'], AddressKind.ADDRESS_KIND_SAFE, true],
    [['smart-account', 'none'], AddressKind.ADDRESS_KIND_SMART_ACCOUNT, true],
    [['contract', 'smart-account'], AddressKind.ADDRESS_KIND_SMART_ACCOUNT, true],
    [['contract', 'none'], AddressKind.ADDRESS_KIND_CONTRACT, false],
  ] as [OnChainKind[], AddressKind, boolean][])('chains saying %j give kind %s', (kinds, kind, tracked) => {
    expect(classifyFromChains(address, kinds)).toMatchObject({ kind, tracked, reason: tracked ? '' : expect.any(String) });
  });

  test('an untracked contract comes with a reason worded for an API error', () => {
    expect(classifyFromChains(address, ['contract']).reason).toBe(
      `address ${address} is a contract that is not a smart-contract wallet; its transactions are not tracked`,
    );
  });
});
