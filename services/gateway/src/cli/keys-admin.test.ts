import { parseKeysListArgs, parseKeysRevokeArgs, parseKeysRotateArgs } from './keys-admin.js';
import { UsageError } from './keys-create.js';

describe('keys list, revoke and rotate arguments', () => {
  const id = '238a3666-11fc-486f-912a-cdff0890a7b4';

  test('read as given', () => {
    expect(parseKeysListArgs([])).toEqual({});
    expect(parseKeysListArgs(['--org', 'acme'])).toEqual({ org: 'acme' });
    expect(parseKeysRevokeArgs([id])).toEqual({ id });
    expect(parseKeysRotateArgs([id, '--previous-valid-hours', '2', '--expires-in-days', '30'], 1_000)).toEqual({
      id,
      previousValidMs: 7_200_000,
      expiresAt: new Date(1_000 + 30 * 86_400_000),
    });
  });

  test.each([
    [() => parseKeysRevokeArgs([]), 'keys revoke takes one key id'],
    [() => parseKeysRevokeArgs([id, id]), 'keys revoke takes one key id'],
    [() => parseKeysRotateArgs([id, '--previous-valid-hours', '-1']), "Option '--previous-valid-hours"],
    [() => parseKeysRotateArgs([id, '--previous-valid-hours', '0']), '--previous-valid-hours must be a positive integer, got "0"'],
    [() => parseKeysListArgs(['--organisation', 'acme']), "Unknown option '--organisation'"],
  ])('%#: a usage error saying %s', (parse, message) => {
    expect(parse).toThrow(UsageError);
    expect(parse).toThrow(message);
  });
});
