import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  getAddress,
  http,
  keccak256,
  parseSignature,
  stringToHex,
  toHex,
  type Address,
  type Hex,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { startAnvil, type AnvilInstance } from '../src/chain/index.js';
import { compileContracts, type Artifact } from '../src/compile/index.js';

const dataDir = new URL('../../.data/devnet/', import.meta.url).pathname;
const contractsDir = new URL('../contracts/', import.meta.url).pathname;
const chainId = 31_338;

const transferTypes = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;
const receiveTypes = { ReceiveWithAuthorization: transferTypes.TransferWithAuthorization } as const;
const cancelTypes = {
  CancelAuthorization: [
    { name: 'authorizer', type: 'address' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

describe('DevnetUSDC: EIP-3009 signed transfers as Circle USDC has them', () => {
  let anvil: AnvilInstance;
  let cacheDir: string;
  let client: PublicClient;
  let usdc: Address;
  let artifact: Artifact;
  const holder = privateKeyToAccount(generatePrivateKey());
  const relayer = privateKeyToAccount(generatePrivateKey());
  const payee = privateKeyToAccount(generatePrivateKey());
  const stranger = privateKeyToAccount(generatePrivateKey());
  const wallet = (account: PrivateKeyAccount): WalletClient => createWalletClient({ account, transport: http(anvil.rpcUrl) });
  const domain = () => ({ name: 'USD Coin', version: '2', chainId, verifyingContract: usdc });
  const read = <T>(functionName: string, args: readonly unknown[] = []) =>
    client.readContract({ address: usdc, abi: artifact.abi, functionName, args }) as Promise<T>;
  const newNonce = (): Hex => toHex(crypto.getRandomValues(new Uint8Array(32)));

  /** Sends `functionName(args)` from `from`, resolving to the receipt's status (reverts are mined, not thrown, with a fixed gas). */
  async function send(from: PrivateKeyAccount, functionName: string, args: readonly unknown[]): Promise<'success' | 'reverted'> {
    const hash = await wallet(from).writeContract({ address: usdc, abi: artifact.abi, functionName, args, chain: null, account: from, gas: 200_000n });
    return (await client.waitForTransactionReceipt({ hash })).status;
  }

  async function authorization(overrides: { value?: bigint; validAfter?: bigint; validBefore?: bigint; to?: Address } = {}) {
    const now = (await client.getBlock()).timestamp;
    return {
      from: holder.address,
      to: overrides.to ?? payee.address,
      value: overrides.value ?? 1_500_000n,
      validAfter: overrides.validAfter ?? 0n,
      validBefore: overrides.validBefore ?? now + 3600n,
      nonce: newNonce(),
    };
  }
  const args = (message: Awaited<ReturnType<typeof authorization>>) =>
    [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce] as const;
  const vrs = (signature: Hex) => {
    const { v, yParity, r, s } = parseSignature(signature);
    return [Number(v ?? BigInt(yParity! + 27)), r, s] as const;
  };
  const balance = (owner: Address) => read<bigint>('balanceOf', [owner]);

  beforeAll(async () => {
    await mkdir(dataDir, { recursive: true });
    cacheDir = await mkdtemp(join(dataDir, 'usdc-eip3009-'));
    anvil = await startAnvil({ chainId, cachePath: cacheDir });
    client = createPublicClient({ transport: http(anvil.rpcUrl), cacheTime: 0 }) as PublicClient;
    for (const account of [holder, relayer, payee, stranger]) {
      await client.request({ method: 'anvil_setBalance' as never, params: [account.address, toHex(10n ** 20n)] as never });
    }
    artifact = (await compileContracts(contractsDir, join(dataDir, 'artifacts'))).DevnetUSDC!;
    const hash = await wallet(holder).deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args: ['USD Coin', 'USDC', 6, 1_000_000_000n, holder.address],
      chain: null,
      account: holder,
    });
    usdc = getAddress((await client.waitForTransactionReceipt({ hash })).contractAddress!);
  });

  afterAll(async () => {
    await anvil?.stop();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  test('the EIP-712 domain is USD Coin version 2 on this chain, as DOMAIN_SEPARATOR and eip712Domain tell', async () => {
    expect(await read('name')).toBe('USD Coin');
    expect(await read('version')).toBe('2');
    expect(await read('decimals')).toBe(6);
    const [, name, version, domainChainId, verifyingContract] = await read<[Hex, string, string, bigint, Address]>('eip712Domain');
    expect({ name, version, chainId: Number(domainChainId), verifyingContract }).toEqual(domain());
    expect(await read<Hex>('DOMAIN_SEPARATOR')).toBe(domainSeparator());
  });

  /** EIP-712's hash of the domain, computed here from its definition. */
  function domainSeparator(): Hex {
    const typeHash = keccak256(stringToHex('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'));
    return keccak256(
      encodeAbiParameters(
        [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'address' }],
        [typeHash, keccak256(stringToHex('USD Coin')), keccak256(stringToHex('2')), BigInt(chainId), usdc],
      ),
    );
  }

  test('transferWithAuthorization moves the value once, sent by anyone, with (v, r, s) or bytes signatures', async () => {
    for (const form of ['vrs', 'bytes'] as const) {
      const message = await authorization();
      const signature = await holder.signTypedData({ domain: domain(), types: transferTypes, primaryType: 'TransferWithAuthorization', message });
      const [holderBefore, payeeBefore] = [await balance(holder.address), await balance(payee.address)];
      const signed = form === 'vrs' ? [...args(message), ...vrs(signature)] : [...args(message), signature];
      expect(await read('authorizationState', [holder.address, message.nonce])).toBe(false);
      expect({ form, status: await send(relayer, 'transferWithAuthorization', signed) }).toEqual({ form, status: 'success' });
      expect(await balance(payee.address)).toBe(payeeBefore + message.value);
      expect(await balance(holder.address)).toBe(holderBefore - message.value);
      expect(await read('authorizationState', [holder.address, message.nonce])).toBe(true);
      // The same authorization again: the nonce is used.
      expect({ form, replay: await send(relayer, 'transferWithAuthorization', signed) }).toEqual({ form, replay: 'reverted' });
      expect(await balance(payee.address)).toBe(payeeBefore + message.value);
    }
  });

  test('wrong signer, changed value, expired and not-yet-valid authorizations revert and move nothing', async () => {
    const now = (await client.getBlock()).timestamp;
    const cases = [
      { name: 'signed by another key', message: await authorization(), signer: stranger, change: {} },
      { name: 'value raised after signing', message: await authorization(), signer: holder, change: { value: 2_000_000n } },
      { name: 'expired', message: await authorization({ validBefore: now - 1n }), signer: holder, change: {} },
      { name: 'not yet valid', message: await authorization({ validAfter: now + 3600n, validBefore: now + 7200n }), signer: holder, change: {} },
    ];
    const before = await balance(payee.address);
    for (const { name, message, signer, change } of cases) {
      const signature = await signer.signTypedData({ domain: domain(), types: transferTypes, primaryType: 'TransferWithAuthorization', message });
      const status = await send(relayer, 'transferWithAuthorization', [...args({ ...message, ...change }), signature]);
      expect({ name, status }).toEqual({ name, status: 'reverted' });
      expect({ name, used: await read('authorizationState', [holder.address, message.nonce]) }).toEqual({ name, used: false });
    }
    expect(await balance(payee.address)).toBe(before);
  });

  test('receiveWithAuthorization is for the payee only; cancelAuthorization burns an unused nonce', async () => {
    const message = await authorization();
    const signature = await holder.signTypedData({ domain: domain(), types: receiveTypes, primaryType: 'ReceiveWithAuthorization', message });
    const before = await balance(payee.address);
    expect(await send(relayer, 'receiveWithAuthorization', [...args(message), signature])).toBe('reverted');
    expect(await send(payee, 'receiveWithAuthorization', [...args(message), ...vrs(signature)])).toBe('success');
    expect(await balance(payee.address)).toBe(before + message.value);

    const canceled = await authorization();
    const transferSignature = await holder.signTypedData({
      domain: domain(),
      types: transferTypes,
      primaryType: 'TransferWithAuthorization',
      message: canceled,
    });
    const forged = await stranger.signTypedData({
      domain: domain(),
      types: cancelTypes,
      primaryType: 'CancelAuthorization',
      message: { authorizer: holder.address, nonce: canceled.nonce },
    });
    expect(await send(relayer, 'cancelAuthorization', [holder.address, canceled.nonce, forged])).toBe('reverted');
    const cancel = await holder.signTypedData({
      domain: domain(),
      types: cancelTypes,
      primaryType: 'CancelAuthorization',
      message: { authorizer: holder.address, nonce: canceled.nonce },
    });
    expect(await send(relayer, 'cancelAuthorization', [holder.address, canceled.nonce, cancel])).toBe('success');
    expect(await read('authorizationState', [holder.address, canceled.nonce])).toBe(true);
    expect(await send(relayer, 'transferWithAuthorization', [...args(canceled), transferSignature])).toBe('reverted');
    expect(await balance(payee.address)).toBe(before + message.value);
  });
});
