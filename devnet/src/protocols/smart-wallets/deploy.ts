import { encodeFunctionData, getAddress, keccak256, parseEther, toHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { TxRequest } from '../../chain/index.js';
import { smartAccountRecords } from '../../truth/smart-wallets.js';
import type { DeployContext } from '../../world/index.js';
import { erc20Abi } from '../defi/abi.js';
import { mineBatch } from '../defi/batch.js';
import { plainTokens, tokensSection } from '../defi/tokens-section.js';
import { accountFactoryAbi } from './abi.js';
import type { SmartAccountInfo, SmartWalletsManifest } from './manifest.js';

const smartAccountCount = 5;

export async function deploySmartWallets(context: DeployContext): Promise<SmartWalletsManifest> {
  const { session, artifacts, deployer, rng } = context;
  const tokens = plainTokens(tokensSection(context.deployed));
  const deploy = async (name: string, args: readonly unknown[]) => {
    const artifact = artifacts[name];
    if (!artifact) throw new Error(`contract ${name} was not compiled`);
    return getAddress(await session.deploy(artifact, args, deployer, context.clock()));
  };

  const safeSingleton = await deploy('DevnetSafe', [[], 0n, false]);
  const safeFactory = await deploy('DevnetSafeFactory', [safeSingleton]);
  const entryPoint = await deploy('DevnetEntryPoint', []);
  const accountFactory = await deploy('DevnetSmartAccountFactory', [entryPoint]);

  const smartAccounts: SmartAccountInfo[] = [];
  for (let index = 0; index < smartAccountCount; index++) {
    const ownerPrivateKey: Hex = keccak256(toHex(`smart-account-owner/${rng.bigint(0n, 2n ** 128n)}`));
    const owner = privateKeyToAccount(ownerPrivateKey).address;
    const salt = BigInt(index);
    const address = getAddress(
      await session.client.readContract({ address: accountFactory, abi: accountFactoryAbi, functionName: 'getAddress', args: [owner, salt] }),
    );
    smartAccounts.push({ address, owner, ownerPrivateKey, salt: salt.toString() });
  }

  // Counterfactual accounts are funded before they exist, as a user tops up the address a wallet
  // app shows before the first operation deploys it: ETH and one of the deployer's minted tokens.
  const minted = tokens.filter((token) => token.kind !== 'weth');
  const funding: TxRequest[] = smartAccounts.flatMap((account) => {
    const token = rng.pick(minted);
    const amount = (BigInt(rng.int(10, 2_000)) * 10n ** BigInt(token.decimals)) / (token.kind === 'btc' ? 10_000n : 1n);
    return [
      { from: deployer, to: account.address, value: parseEther(String(rng.int(5, 300) / 100)), gas: 21_000n },
      {
        from: deployer,
        to: token.address,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [account.address, amount] }),
        gas: 120_000n,
      },
    ];
  });
  await mineBatch(session, funding, context.clock());

  const manifest: SmartWalletsManifest = { safeSingleton, safeFactory, entryPoint, accountFactory, bundler: deployer, smartAccounts, wallets: [] };
  manifest.wallets = smartAccountRecords(manifest);
  return manifest;
}
