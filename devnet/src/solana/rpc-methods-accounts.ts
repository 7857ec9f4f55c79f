// Account state: balances, accounts, program accounts and token accounts, read from LiteSVM at
// the newest state (every commitment alike), with the node's default encodings (`binary` for
// getAccountInfo, getProgramAccounts and the token-account scans, `base64` for getMultipleAccounts).
import { getAddressEncoder, getBase58Encoder, getBase64Encoder, type Address } from '@solana/kit';
import type { LiteSVM } from 'litesvm';
import { accountEncodingOf, dataSliceOf, encodeAccount } from './account-encoding.js';
import type { SolanaLedger } from './ledger-types.js';
import { readAccount, type AccountView } from './ledger-snapshot.js';
import { invalidParams } from './rpc-errors.js';
import { checkMinContextSlot, commitmentOf, configParam, positional, pubkeyParam, stringParam, usizeParam, type Config } from './rpc-params.js';
import { contextSlot, withContext, type RpcMethod } from './rpc-context.js';
import { mintDisplay } from './token-json.js';
import { isTokenProgram, nativeMintAddress, parseMint, parseTokenAccount, tokenProgramAddress } from './token-state.js';
import { uiTokenAmount } from './ui-amount.js';

const maxMultipleAccounts = 100;
const maxProgramAccountFilters = 4;
const addressBytes = getAddressEncoder();
const base58 = getBase58Encoder();
const base64 = getBase64Encoder();

function readConfig(ledger: SolanaLedger, value: unknown): Config {
  const config = configParam(value);
  commitmentOf(config);
  checkMinContextSlot(config, contextSlot(ledger));
  return config;
}

/** Byte order of the addresses, as the accounts index sorts them. */
function byAddress(a: { pubkey: string }, b: { pubkey: string }): number {
  return Buffer.compare(Buffer.from(addressBytes.encode(a.pubkey as Address)), Buffer.from(addressBytes.encode(b.pubkey as Address)));
}

function programAccounts(svm: LiteSVM, program: string): { pubkey: string; account: AccountView }[] {
  return svm
    .getProgramAccounts(program as Address)
    .filter((account) => account.lamports > 0n)
    .map((account) => ({
      pubkey: account.address,
      account: { lamports: account.lamports, data: new Uint8Array(account.data), owner: account.programAddress, executable: account.executable },
    }));
}

type Filter = (data: Uint8Array) => boolean;

/** `RpcFilterType`: dataSize, memcmp (base58 or base64 bytes) and tokenAccountState. */
function filterOf(value: unknown): Filter {
  const filter = configParam(value);
  if (filter.dataSize !== undefined) {
    const size = usizeParam(filter.dataSize);
    return (data) => data.length === size;
  }
  if (filter.memcmp !== undefined) {
    const memcmp = configParam(filter.memcmp);
    const offset = usizeParam(memcmp.offset);
    const encoding = memcmp.encoding === undefined || memcmp.encoding === null ? 'base58' : stringParam(memcmp.encoding);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(encoding === 'base64' ? base64.encode(stringParam(memcmp.bytes)) : base58.encode(stringParam(memcmp.bytes)));
    } catch {
      throw invalidParams('Invalid param: DecodeError');
    }
    return (data) => data.length >= offset + bytes.length && bytes.every((byte, index) => data[offset + index] === byte);
  }
  if (filter.tokenAccountState !== undefined) return (data) => parseTokenAccount(data) !== undefined;
  throw invalidParams('Invalid params: data did not match any variant of untagged enum RpcFilterType.');
}

/** `get_token_program_id_and_mint`. */
function tokenAccountsFilter(svm: LiteSVM, value: unknown): { program: string; mint?: string } {
  const filter = configParam(value);
  if (filter.mint !== undefined && filter.programId === undefined) {
    const mint = pubkeyParam(filter.mint);
    if (mint === nativeMintAddress && !readAccount(svm, mint)) return { program: tokenProgramAddress, mint };
    const account = readAccount(svm, mint);
    if (!account) throw invalidParams('Invalid param: could not find mint');
    if (!isTokenProgram(account.owner)) throw invalidParams('Invalid param: not a Token mint');
    return { program: account.owner, mint };
  }
  if (filter.programId !== undefined && filter.mint === undefined) {
    const program = pubkeyParam(filter.programId);
    if (!isTokenProgram(program)) throw invalidParams('Invalid param: unrecognized Token program id');
    return { program };
  }
  throw invalidParams('Invalid params: data did not match any variant of untagged enum RpcTokenAccountsFilter.');
}

function tokenAccounts(field: 'owner' | 'delegate'): RpcMethod {
  return (params, { ledger }) => {
    const [keyValue, filterValue, configValue] = positional(params, 2);
    const key = pubkeyParam(keyValue);
    const { program, mint } = tokenAccountsFilter(ledger.svm, filterValue);
    const config = readConfig(ledger, configValue);
    const encoding = accountEncodingOf(config, 'binary');
    const slice = dataSliceOf(config);
    const matches = programAccounts(ledger.svm, program).filter(({ account }) => {
      const token = parseTokenAccount(account.data);
      return token !== undefined && token[field] === key && (mint === undefined || token.mint === mint);
    });
    return withContext(
      ledger,
      matches.sort(byAddress).map(({ pubkey, account }) => ({ pubkey, account: encodeAccount(ledger.svm, account, encoding, slice) })),
    );
  };
}

export const accountMethods: Record<string, RpcMethod> = {
  getBalance: (params, { ledger }) => {
    const [addressValue, configValue] = positional(params, 1);
    const address = pubkeyParam(addressValue);
    readConfig(ledger, configValue);
    return withContext(ledger, readAccount(ledger.svm, address)?.lamports ?? 0n);
  },

  getAccountInfo: (params, { ledger }) => {
    const [addressValue, configValue] = positional(params, 1);
    const address = pubkeyParam(addressValue);
    const config = readConfig(ledger, configValue);
    const encoding = accountEncodingOf(config, 'binary');
    const slice = dataSliceOf(config);
    const account = readAccount(ledger.svm, address);
    return withContext(ledger, account ? encodeAccount(ledger.svm, account, encoding, slice) : null);
  },

  getMultipleAccounts: (params, { ledger }) => {
    const [addressesValue, configValue] = positional(params, 1);
    if (!Array.isArray(addressesValue)) throw invalidParams('Invalid params: invalid type: expected a sequence.');
    if (addressesValue.length > maxMultipleAccounts) throw invalidParams(`Too many inputs provided; max ${maxMultipleAccounts}`);
    const addresses = addressesValue.map(pubkeyParam);
    const config = readConfig(ledger, configValue);
    const encoding = accountEncodingOf(config, 'base64');
    const slice = dataSliceOf(config);
    return withContext(
      ledger,
      addresses.map((address) => {
        const account = readAccount(ledger.svm, address);
        return account ? encodeAccount(ledger.svm, account, encoding, slice) : null;
      }),
    );
  },

  getProgramAccounts: (params, { ledger }) => {
    const [programValue, configValue] = positional(params, 1);
    const program = pubkeyParam(programValue);
    const config = readConfig(ledger, configValue);
    const encoding = accountEncodingOf(config, 'binary');
    const slice = dataSliceOf(config);
    const filterValues = config.filters === undefined || config.filters === null ? [] : config.filters;
    if (!Array.isArray(filterValues)) throw invalidParams('Invalid params: invalid type: expected a sequence.');
    if (filterValues.length > maxProgramAccountFilters) throw invalidParams(`Too many filters provided; max ${maxProgramAccountFilters}`);
    const filters = filterValues.map(filterOf);
    let found = programAccounts(ledger.svm, program).filter(({ account }) => filters.every((filter) => filter(account.data)));
    if (config.sortResults !== false) found = found.sort(byAddress);
    const accounts = found.map(({ pubkey, account }) => ({
      pubkey,
      account:
        encoding === 'jsonParsed' && !isTokenProgram(program)
          ? encodeAccount(ledger.svm, account, 'base64', slice)
          : encodeAccount(ledger.svm, account, encoding, slice),
    }));
    return config.withContext === true ? withContext(ledger, accounts) : accounts;
  },

  getTokenAccountsByOwner: tokenAccounts('owner'),

  getTokenAccountsByDelegate: tokenAccounts('delegate'),

  getTokenAccountBalance: (params, { ledger }) => {
    const [addressValue, configValue] = positional(params, 1);
    const address = pubkeyParam(addressValue);
    readConfig(ledger, configValue);
    const account = readAccount(ledger.svm, address);
    if (!account) throw invalidParams('Invalid param: could not find account');
    if (!isTokenProgram(account.owner)) throw invalidParams('Invalid param: not a Token account');
    const token = parseTokenAccount(account.data);
    if (!token) throw invalidParams('Invalid param: not a Token account');
    const mintAccount = readAccount(ledger.svm, token.mint);
    const mint = mintAccount ? parseMint(mintAccount.data) : undefined;
    if (!mint) throw invalidParams('Invalid param: could not find mint');
    return withContext(ledger, uiTokenAmount(token.amount, mintDisplay(mint, ledger.svm.getClock().unixTimestamp)));
  },

  getTokenSupply: (params, { ledger }) => {
    const [mintValue, configValue] = positional(params, 1);
    const address = pubkeyParam(mintValue);
    readConfig(ledger, configValue);
    const account = readAccount(ledger.svm, address);
    if (!account) throw invalidParams('Invalid param: could not find account');
    if (!isTokenProgram(account.owner)) throw invalidParams('Invalid param: not a Token mint');
    const mint = parseMint(account.data);
    if (!mint) throw invalidParams('Invalid param: mint could not be unpacked');
    return withContext(ledger, uiTokenAmount(mint.supply, mintDisplay(mint, ledger.svm.getClock().unixTimestamp)));
  },
};
