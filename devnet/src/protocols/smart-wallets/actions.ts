import { encodeFunctionData, type Address, type Hash, type Hex } from 'viem';
import { readSafeRecord, readSafeState, readSmartAccountState, smartAccountRecords, type SafeState } from '../../truth/smart-wallets.js';
import type { ActionContext, ActionSpec } from '../../world/index.js';
import { erc20Abi } from '../defi/abi.js';
import { chooseAmount, shareOf } from '../defi/amounts.js';
import { plainTokens, tokensSection, type TokenRef } from '../defi/tokens-section.js';
import { entryPointAbi, safeAbi, safeFactoryAbi, smartAccountAbi } from './abi.js';
import type { SmartAccountInfo, SmartWalletRecord, SmartWalletsManifest } from './manifest.js';
import { approvedHashSignatures, safeTransactionHash, type SafeCall } from './safe-transactions.js';
import { signedUserOperation } from './user-operations.js';

type SafeRecord = Extract<SmartWalletRecord, { kind: 'safe' }>;

/** ETH an EOA keeps for gas rather than sending it to a smart wallet. */
const gasReserve = 5n * 10n ** 16n;
const gas = { ethTransfer: 80_000n, tokenTransfer: 120_000n, approveHash: 100_000n, exec: 500_000n, bundle: 1_500_000n };

/** A holding of ETH (`token` undefined) or of a token. */
interface Holding {
  token?: TokenRef;
  balance: bigint;
}

/** The next transaction of a safe: approved by owners one action at a time, then executed. */
interface SafeProposal {
  nonce: bigint;
  call: SafeCall;
  hash: Hex;
  /** What the call moves out of the safe, which must still be there when it executes. */
  spends: Holding;
  /** A token pull without allowance: the inner call fails. */
  failing?: { token: Address; from: Address; amount: bigint };
}

async function holdings(context: ActionContext, tokens: readonly TokenRef[], owner: Address): Promise<Holding[]> {
  const client = context.session.client;
  const [eth, ...balances] = await Promise.all([
    client.getBalance({ address: owner }),
    ...tokens.map((token) => client.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })),
  ]);
  return [{ balance: eth }, ...tokens.map((token, index) => ({ token, balance: balances[index]! }))].filter((holding) => holding.balance > 0n);
}

function transferCall(holding: Holding, to: Address, amount: bigint): SafeCall {
  if (!holding.token) return { to, value: amount, data: '0x' };
  return { to: holding.token.address, value: 0n, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }) };
}

/** What an EOA can give away: its tokens, and its ETH above the gas reserve. */
async function givable(context: ActionContext, tokens: readonly TokenRef[], wallet: Address): Promise<Holding[]> {
  return (await holdings(context, tokens, wallet))
    .map((holding) => (holding.token ? holding : { balance: holding.balance > gasReserve ? (holding.balance - gasReserve) / 2n : 0n }))
    .filter((holding) => holding.balance > 0n);
}

export function smartWalletsActions(manifest: SmartWalletsManifest): ActionSpec[] {
  const factory = manifest.safeFactory;
  // The factory's registry only grows, so a reorg can only cut or replace its tail: keep the
  // records whose index still holds the same safe and read the rest.
  const safes: SafeRecord[] = [];
  async function syncSafes(context: ActionContext): Promise<SafeRecord[]> {
    const client = context.session.client;
    const count = Number(await client.readContract({ address: factory, abi: safeFactoryAbi, functionName: 'safeCount' }));
    while (safes.length > 0) {
      const index = safes.length - 1;
      if (
        index < count &&
        (await client.readContract({ address: factory, abi: safeFactoryAbi, functionName: 'safes', args: [BigInt(index)] })) === safes[index]!.address
      )
        break;
      safes.pop();
    }
    for (let index = safes.length; index < count; index++) safes.push((await readSafeRecord(client, manifest, index)) as SafeRecord);
    manifest.wallets = [...smartAccountRecords(manifest), ...safes];
    return safes;
  }

  // One action per smart wallet per block, so that what an action read at the latest block still
  // holds when its block is mined (the world builder promises the same for each EOA).
  const busy = new Map<Address, number>();
  const take = (context: ActionContext, wallet: Address) => {
    if (busy.get(wallet) === context.timestamp) return false;
    busy.set(wallet, context.timestamp);
    return true;
  };

  const proposals = new Map<Address, SafeProposal>();
  async function currentProposal(context: ActionContext, tokens: readonly TokenRef[], state: SafeState): Promise<SafeProposal | undefined> {
    const existing = proposals.get(state.address);
    if (existing && existing.nonce === state.nonce) return existing;
    const { rng } = context;
    const recipient = rng.pick([...state.owners, ...context.wallets]);
    let proposal: Omit<SafeProposal, 'hash'>;
    if (rng.chance(0.2)) {
      const token = rng.pick(tokens);
      const from = rng.pick(state.owners);
      const amount = chooseAmount(rng, 10n ** BigInt(token.decimals + 3), token.decimals);
      const call = { to: token.address, value: 0n, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transferFrom', args: [from, recipient, amount] }) };
      proposal = { nonce: state.nonce, call, spends: { balance: 0n }, failing: { token: token.address, from, amount } };
    } else {
      const held = await holdings(context, tokens, state.address);
      if (held.length === 0) return undefined;
      const holding = rng.pick(held);
      const amount = chooseAmount(rng, holding.balance, holding.token?.decimals ?? 18);
      proposal = { nonce: state.nonce, call: transferCall(holding, recipient, amount), spends: { ...holding, balance: amount } };
    }
    const created = { ...proposal, hash: safeTransactionHash(state.address, context.session.chainId, proposal.call, state.nonce) };
    proposals.set(state.address, created);
    return created;
  }

  /** Whether the proposal will run as planned: its funds are still there, or its failing pull still lacks allowance. */
  async function stillExecutable(context: ActionContext, safe: Address, proposal: SafeProposal): Promise<boolean> {
    const client = context.session.client;
    if (proposal.failing) {
      const { token, from, amount } = proposal.failing;
      return (await client.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [from, safe] })) < amount;
    }
    const { token, balance } = proposal.spends;
    const held = token
      ? await client.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [safe] })
      : await client.getBalance({ address: safe });
    return held >= balance;
  }

  const approvedBy = (context: ActionContext, safe: Address, owner: Address, hash: Hex) =>
    context.session.client.readContract({ address: safe, abi: safeAbi, functionName: 'approvedHashes', args: [owner, hash] });

  const send = async (context: ActionContext, from: Address, to: Address, data: Hex, gasLimit: bigint, value?: bigint): Promise<Hash> =>
    context.session.send({ from, to, data, gas: gasLimit, ...(value ? { value } : {}) });

  const safeCreate: ActionSpec = {
    kind: 'smart-wallets:safe-create',
    weight: 0.6,
    async run(context, wallet) {
      const { rng } = context;
      const registry = await syncSafes(context);
      const others = context.wallets.filter((candidate) => candidate !== wallet);
      if (others.length === 0 || registry.filter((safe) => safe.owners.includes(wallet)).length >= 2) return undefined;
      const owners = [wallet, ...rng.shuffle(others).slice(0, rng.int(1, Math.min(2, others.length)))];
      const requireSuccess = rng.chance(0.4);
      const asProxy = rng.chance(0.7);
      const args = [owners, 2n, requireSuccess, rng.bigint(0n, 2n ** 64n - 1n)] as const;
      const client = context.session.client;
      const safe = await client.readContract({ address: factory, abi: safeFactoryAbi, functionName: asProxy ? 'proxyAddress' : 'instanceAddress', args });
      const hashes = [
        await send(
          context,
          wallet,
          factory,
          encodeFunctionData({ abi: safeFactoryAbi, functionName: asProxy ? 'createProxy' : 'createInstance', args }),
          asProxy ? 600_000n : 3_000_000n,
        ),
      ];
      take(context, safe);
      const tokens = plainTokens(tokensSection(context.deployed));
      const held = await givable(context, tokens, wallet);
      const eth = held.find((holding) => !holding.token);
      if (eth) hashes.push(await send(context, wallet, safe, '0x', gas.ethTransfer, chooseAmount(rng, eth.balance, 18)));
      const tokenHeld = held.filter((holding) => holding.token);
      if (tokenHeld.length > 0) {
        const holding = rng.pick(tokenHeld);
        const call = transferCall(holding, safe, chooseAmount(rng, holding.balance, holding.token!.decimals));
        hashes.push(await send(context, wallet, call.to, call.data, gas.tokenTransfer));
      }
      return { label: 'smart-wallets:safe-create', hashes };
    },
  };

  // An owner does the step its safe's pending transaction needs: execute it once the other owners'
  // approvals reach the threshold (the sender's own counts), otherwise approve it.
  const safeTransaction: ActionSpec = {
    kind: 'smart-wallets:safe-transaction',
    weight: 5,
    async run(context, wallet) {
      const tokens = plainTokens(tokensSection(context.deployed));
      const owned = (await syncSafes(context)).filter((safe) => safe.owners.includes(wallet));
      for (const safe of context.rng.shuffle(owned)) {
        const state = await readSafeState(context.session.client, safe.address);
        let proposal = await currentProposal(context, tokens, state);
        if (proposal && !(await stillExecutable(context, safe.address, proposal))) {
          proposals.delete(safe.address);
          proposal = await currentProposal(context, tokens, state);
        }
        if (!proposal) continue;
        const approvers: Address[] = [];
        for (const owner of state.owners) {
          if (owner !== wallet && (await approvedBy(context, safe.address, owner, proposal.hash)) !== 0n) approvers.push(owner);
        }
        if (approvers.length < state.threshold - 1) {
          if ((await approvedBy(context, safe.address, wallet, proposal.hash)) !== 0n) continue;
          const data = encodeFunctionData({ abi: safeAbi, functionName: 'approveHash', args: [proposal.hash] });
          return { label: 'smart-wallets:safe-approve', hashes: [await send(context, wallet, safe.address, data, gas.approveHash)] };
        }
        if (!take(context, safe.address)) continue;
        const signatures = approvedHashSignatures([wallet, ...approvers.slice(0, state.threshold - 1)]);
        const { to, value, data } = proposal.call;
        const exec = encodeFunctionData({ abi: safeAbi, functionName: 'execTransaction', args: [to, value, data, 0, signatures] });
        const hashes = [await send(context, wallet, safe.address, exec, gas.exec)];
        if (!proposal.failing) return { label: 'smart-wallets:safe-execute', hashes };
        // A reverted execution leaves the nonce where it was: the next proposal replaces this one.
        proposals.delete(safe.address);
        if (state.requireSuccess) return { label: 'smart-wallets:safe-execute-reverted', hashes, expectFailure: true };
        return { label: 'smart-wallets:safe-execute-failed-call', hashes };
      }
      return undefined;
    },
  };

  const safeUnsigned: ActionSpec = {
    kind: 'smart-wallets:safe-execute-unsigned',
    weight: 0.5,
    async run(context, wallet) {
      // One approval where the threshold asks for two: the safe rejects it.
      const candidates = (await syncSafes(context)).filter((safe) => safe.threshold > 1);
      if (candidates.length === 0) return undefined;
      const safe = context.rng.pick(candidates);
      const value = chooseAmount(context.rng, 10n ** 18n, 18);
      const exec = encodeFunctionData({ abi: safeAbi, functionName: 'execTransaction', args: [wallet, value, '0x', 0, approvedHashSignatures([wallet])] });
      return { label: 'smart-wallets:safe-execute-unsigned', hashes: [await send(context, wallet, safe.address, exec, gas.exec)], expectFailure: true };
    },
  };

  const fund: ActionSpec = {
    kind: 'smart-wallets:fund',
    weight: 2,
    async run(context, wallet) {
      const { rng } = context;
      const targets = [...(await syncSafes(context)).map((safe) => safe.address), ...manifest.smartAccounts.map((account) => account.address)];
      const target = rng.pick(targets);
      const held = await givable(context, plainTokens(tokensSection(context.deployed)), wallet);
      if (held.length === 0 || !take(context, target)) return undefined;
      const holding = rng.pick(held);
      const call = transferCall(holding, target, chooseAmount(rng, holding.balance, holding.token?.decimals ?? 18));
      const hash = await send(context, wallet, call.to, call.data, holding.token ? gas.tokenTransfer : gas.ethTransfer, call.value);
      return { label: holding.token ? 'smart-wallets:fund-token' : 'smart-wallets:fund-eth', hashes: [hash] };
    },
  };

  /** A user operation of the account, signed by its owner and bundled by the deployer. */
  async function bundle(context: ActionContext, account: SmartAccountInfo, call: SafeCall): Promise<Hash> {
    const { deployed, nonce } = await readSmartAccountState(context.session.client, manifest, account.address);
    const op = await signedUserOperation({
      account,
      accountFactory: manifest.accountFactory,
      entryPoint: manifest.entryPoint,
      chainId: context.session.chainId,
      deployed,
      nonce,
      call,
    });
    const data = encodeFunctionData({ abi: entryPointAbi, functionName: 'handleOps', args: [[op]] });
    return send(context, manifest.bundler, manifest.entryPoint, data, gas.bundle);
  }

  // The wallet is on the receiving end of these operations: a smart account pays it.
  const accountOperation: ActionSpec = {
    kind: 'smart-wallets:account-op',
    weight: 2,
    async run(context, wallet) {
      const tokens = plainTokens(tokensSection(context.deployed));
      for (const account of context.rng.shuffle(manifest.smartAccounts)) {
        if (busy.get(account.address) === context.timestamp) continue;
        const held = await holdings(context, tokens, account.address);
        if (held.length === 0) continue;
        take(context, account.address);
        const holding = context.rng.pick(held);
        const call = transferCall(holding, wallet, chooseAmount(context.rng, holding.balance, holding.token?.decimals ?? 18));
        return { label: 'smart-wallets:account-op', hashes: [await bundle(context, account, call)] };
      }
      return undefined;
    },
  };

  const accountOperationFailing: ActionSpec = {
    kind: 'smart-wallets:account-op-failing',
    weight: 0.7,
    async run(context, wallet) {
      const { rng } = context;
      const account = rng.pick(manifest.smartAccounts);
      if (!take(context, account.address)) return undefined;
      // More of a token than the account holds: the bundle succeeds, the operation fails.
      const token = rng.pick(plainTokens(tokensSection(context.deployed)));
      const balance = await context.session.client.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] });
      const amount = balance + shareOf(rng, balance, 100, 5_000) + 10n ** BigInt(token.decimals);
      const call = transferCall({ token, balance }, wallet, amount);
      return { label: 'smart-wallets:account-op-failed', hashes: [await bundle(context, account, call)] };
    },
  };

  const accountDirectCall: ActionSpec = {
    kind: 'smart-wallets:account-call-unauthorized',
    weight: 0.5,
    async run(context, wallet) {
      const client = context.session.client;
      for (const account of context.rng.shuffle(manifest.smartAccounts)) {
        const code = await client.getCode({ address: account.address });
        if (!code || code === '0x') continue;
        // Only the EntryPoint may make the account act.
        const data = encodeFunctionData({ abi: smartAccountAbi, functionName: 'execute', args: [wallet, 0n, '0x'] });
        return {
          label: 'smart-wallets:account-call-unauthorized',
          hashes: [await send(context, wallet, account.address, data, 100_000n)],
          expectFailure: true,
        };
      }
      return undefined;
    },
  };

  return [safeCreate, safeTransaction, safeUnsigned, fund, accountOperation, accountOperationFailing, accountDirectCall];
}
