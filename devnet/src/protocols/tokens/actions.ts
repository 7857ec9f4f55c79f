import { encodeFunctionData, maxUint256, parseUnits, type Address, type Hash } from 'viem';
import type { TxRequest } from '../../chain/index.js';
import type { ActionContext, ActionResult, ActionSpec } from '../../world/index.js';
import { erc20Abi, spamTokenAbi, wethAbi } from './abis.js';
import { humanAmount, logUniform, logUniformUnits, shareOf } from './amounts.js';
import { otherWallet } from './counterparty.js';
import { erc20TransferGas } from './fund.js';
import { knownContracts } from './known-contracts.js';
import type { TokenInfo, TokensManifest } from './manifest.js';
import { spendableEth } from './spendable-eth.js';

const label = (kind: string) => `tokens:${kind}`;

type Held = TokenInfo & { balance: bigint };

/** The wallet's non-zero token balances at the latest block, with their manifest entries. */
async function heldTokens(context: ActionContext, manifest: TokensManifest, wallet: Address): Promise<Held[]> {
  const { client } = context.session;
  const balances = await Promise.all(
    manifest.tokens.map((token) => client.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] })),
  );
  return manifest.tokens.map((token, index) => ({ ...token, balance: balances[index]! })).filter((token) => token.balance > 0n);
}

/** Now and then everything, otherwise a person-typed share of the balance. */
function transferAmount(context: ActionContext, balance: bigint): bigint {
  if (context.rng.chance(0.15)) return balance;
  const amount = humanAmount(context.rng, shareOf(context.rng, balance, 0.01, 0.8));
  return amount > 0n ? amount : balance;
}

function approveData(spender: Address, amount: bigint) {
  return encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] });
}

/**
 * Everyday wallet activity with ETH and ERC-20s. Approvals are remembered per chain and wallet
 * (in this process only) so that revokes undo a real earlier approval; the allowance is read from
 * the chain before revoking, so a forgotten or reorged-away approval is simply skipped.
 */
export function tokensActions(manifest: TokensManifest): ActionSpec[] {
  const approvals = new Map<string, { token: Address; spender: Address }[]>();
  const approvalKey = (context: ActionContext, wallet: Address) => `${context.session.chainId}:${wallet}`;
  const spam = manifest.tokens.filter((token) => token.kind === 'spam');
  const approvable = manifest.tokens.filter((token) => token.kind !== 'spam');

  const send = async (context: ActionContext, kind: string, request: TxRequest): Promise<ActionResult> => {
    const hash: Hash = await context.session.send(request);
    return { label: label(kind), hashes: [hash] };
  };

  return [
    {
      kind: 'eth-transfer',
      weight: 10,
      async run(context, wallet) {
        const to = otherWallet(context, wallet);
        const spendable = await spendableEth(context, wallet);
        if (!to || spendable === 0n) return undefined;
        const value = humanAmount(context.rng, shareOf(context.rng, spendable, 0.005, 0.5));
        if (value === 0n) return undefined;
        return send(context, 'eth-transfer', { from: wallet, to, value, gas: 21_000n });
      },
    },
    {
      kind: 'erc20-transfer',
      weight: 12,
      async run(context, wallet) {
        const to = otherWallet(context, wallet);
        const held = await heldTokens(context, manifest, wallet);
        // Spam is mostly left where it landed; now and then someone tries to pass it on.
        const movable = context.rng.chance(0.1) ? held : held.filter((token) => token.kind !== 'spam');
        if (!to || movable.length === 0) return undefined;
        const token = context.rng.pick(movable);
        const amount = transferAmount(context, token.balance);
        const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
        return send(context, 'erc20-transfer', { from: wallet, to: token.address, data, gas: erc20TransferGas });
      },
    },
    {
      kind: 'approve',
      weight: 5,
      async run(context, wallet) {
        const { rng } = context;
        const held = (await heldTokens(context, manifest, wallet)).filter((token) => token.kind !== 'spam');
        const token: TokenInfo & { balance?: bigint } = held.length > 0 && rng.chance(0.85) ? rng.pick(held) : rng.pick(approvable);
        const contracts = knownContracts(context.deployed).filter((address) => address !== wallet && address !== context.deployer);
        const spender = contracts.length > 0 && rng.chance(0.75) ? rng.pick(contracts) : otherWallet(context, wallet);
        if (!spender) return undefined;
        let amount: bigint;
        if (rng.chance(0.45)) amount = maxUint256;
        else if (token.balance) amount = humanAmount(rng, shareOf(rng, token.balance, 0.1, 3));
        else amount = humanAmount(rng, logUniformUnits(rng, 1, 10_000, token.decimals));
        if (amount === 0n) amount = parseUnits('1', token.decimals);
        const key = approvalKey(context, wallet);
        approvals.set(key, [...(approvals.get(key) ?? []), { token: token.address, spender }]);
        return send(context, 'approve', { from: wallet, to: token.address, data: approveData(spender, amount), gas: 80_000n });
      },
    },
    {
      kind: 'revoke',
      weight: 2,
      async run(context, wallet) {
        const key = approvalKey(context, wallet);
        const remembered = approvals.get(key) ?? [];
        for (const approval of context.rng.shuffle(remembered)) {
          const allowance = await context.session.client.readContract({
            address: approval.token,
            abi: erc20Abi,
            functionName: 'allowance',
            args: [wallet, approval.spender],
          });
          if (allowance === 0n) continue;
          approvals.set(
            key,
            remembered.filter((entry) => entry.token !== approval.token || entry.spender !== approval.spender),
          );
          return send(context, 'revoke', { from: wallet, to: approval.token, data: approveData(approval.spender, 0n), gas: 80_000n });
        }
        approvals.delete(key);
        return undefined;
      },
    },
    {
      kind: 'weth-deposit',
      weight: 4,
      async run(context, wallet) {
        const spendable = await spendableEth(context, wallet);
        const value = humanAmount(context.rng, shareOf(context.rng, spendable, 0.05, 0.6));
        if (value === 0n) return undefined;
        const data = encodeFunctionData({ abi: wethAbi, functionName: 'deposit' });
        return send(context, 'weth-deposit', { from: wallet, to: manifest.weth, data, value, gas: 80_000n });
      },
    },
    {
      kind: 'weth-withdraw',
      weight: 3,
      async run(context, wallet) {
        const balance = await context.session.client.readContract({ address: manifest.weth, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] });
        if (balance === 0n) return undefined;
        const amount = context.rng.chance(0.4) ? balance : transferAmount(context, balance);
        const data = encodeFunctionData({ abi: wethAbi, functionName: 'withdraw', args: [amount] });
        return send(context, 'weth-withdraw', { from: wallet, to: manifest.weth, data, gas: 80_000n });
      },
    },
    {
      kind: 'spam-airdrop',
      weight: 1,
      async run(context, wallet) {
        const { rng } = context;
        const others = rng.shuffle(context.wallets.filter((candidate) => candidate !== wallet));
        const recipients = [wallet, ...others.slice(0, rng.int(3, 40))];
        const token = rng.pick(spam);
        const amount = parseUnits(String(rng.pick([1_000, 2_500, 5_000, 8_888, 10_000, Math.round(logUniform(rng, 100, 100_000))])), token.decimals);
        const data = encodeFunctionData({ abi: spamTokenAbi, functionName: 'airdrop', args: [recipients, amount] });
        // Sent by the spammer (the deployer): the wallets only receive.
        return send(context, 'spam-airdrop', { from: context.deployer, to: token.address, data, gas: 60_000n + 40_000n * BigInt(recipients.length) });
      },
    },
    {
      kind: 'deploy-contract',
      weight: 1,
      async run(context, wallet) {
        const tip = context.rng.chance(0.3) ? humanAmount(context.rng, shareOf(context.rng, await spendableEth(context, wallet), 0.001, 0.05)) : 0n;
        return send(context, 'deploy-contract', { from: wallet, data: manifest.walletContractBytecode, value: tip, gas: 400_000n });
      },
    },
    {
      kind: 'failed-transfer',
      weight: 1,
      async run(context, wallet) {
        const { rng } = context;
        const to = otherWallet(context, wallet);
        if (!to) return undefined;
        const held = (await heldTokens(context, manifest, wallet)).filter((token) => token.kind !== 'spam');
        const token: TokenInfo & { balance?: bigint } = held.length > 0 ? rng.pick(held) : rng.pick(approvable);
        const balance = token.balance ?? 0n;
        // More than the wallet holds, as when a wallet UI shows a stale balance.
        const amount = balance + (balance > 0n ? shareOf(rng, balance, 0.01, 2) + 1n : logUniformUnits(rng, 1, 1_000, token.decimals));
        const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
        return { ...(await send(context, 'failed-transfer', { from: wallet, to: token.address, data, gas: erc20TransferGas })), expectFailure: true };
      },
    },
  ];
}
