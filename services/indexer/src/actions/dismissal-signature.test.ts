import { generateKeyPair, generateKeyPairSigner, getAddressFromPublicKey, getBase58Decoder, signBytes } from '@solana/kit';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { checkDismissalSignature } from './dismissal-signature.js';

const actionId = 'act_0123456789abcdef0123456789abcdef';
const base58 = getBase58Decoder();

describe('checkDismissalSignature: EVM (EIP-191 personal_sign of the action id)', () => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const stranger = privateKeyToAccount(generatePrivateKey());
  const address = wallet.address.toLowerCase();

  test("the wallet's signature of the id is valid", async () => {
    expect(await checkDismissalSignature(address, actionId, await wallet.signMessage({ message: actionId }))).toEqual({ valid: true });
  });

  test.each([
    ['another key', async () => stranger.signMessage({ message: actionId }), /is not the wallet 0x[0-9a-f]{40}'s signature/],
    ['another message', async () => wallet.signMessage({ message: `${actionId}x` }), /is not the wallet/],
    ['not hex', async () => 'zz', /must be a 0x-hex EIP-191 signature/],
    ['a base58 string', async () => '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW', /must be a 0x-hex/],
    ['too short', async () => '0x1234', /^is not a valid EIP-191 signature$/],
    ['65 bytes no key produces', async () => `0x${'ff'.repeat(65)}`, /^is not a valid EIP-191 signature$/],
  ])('%s is refused with a reason', async (_name, signature, reason) => {
    const check = await checkDismissalSignature(address, actionId, await signature());
    expect(check.valid).toBe(false);
    expect(check.valid === false && check.reason).toMatch(reason);
  });
});

describe('checkDismissalSignature: Solana (ed25519 over the id bytes, base58)', () => {
  test("a real key pair: its signature is valid, another key's and another message's are not", async () => {
    const signer = await generateKeyPairSigner();
    const other = await generateKeyPair();
    const message = new TextEncoder().encode(actionId);
    const own = base58.decode(await signBytes(signer.keyPair.privateKey, message));
    expect(await checkDismissalSignature(signer.address, actionId, own)).toEqual({ valid: true });

    const foreign = base58.decode(await signBytes(other.privateKey, message));
    expect(await checkDismissalSignature(signer.address, actionId, foreign)).toEqual({
      valid: false,
      reason: `is not the wallet ${signer.address}'s signature of the action id`,
    });
    expect((await checkDismissalSignature(await getAddressFromPublicKey(other.publicKey), actionId, foreign)).valid).toBe(true);

    const otherMessage = base58.decode(await signBytes(signer.keyPair.privateKey, new TextEncoder().encode(`${actionId}x`)));
    expect((await checkDismissalSignature(signer.address, actionId, otherMessage)).valid).toBe(false);
  });

  test('malformed signatures are refused before any check', async () => {
    const { address } = await generateKeyPairSigner();
    expect(await checkDismissalSignature(address, actionId, `0x${'ab'.repeat(65)}`)).toEqual({
      valid: false,
      reason: 'must be a base58 ed25519 signature for a Solana wallet',
    });
    expect(await checkDismissalSignature(address, actionId, '3yZe7d')).toEqual({ valid: false, reason: 'must be a base58 ed25519 signature of 64 bytes' });
  });
});
