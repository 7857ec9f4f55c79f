import { transactionBuildResponseSchema } from '../schemas/transaction-action.js';
import { toTransactionBuild } from './transaction-actions.js';

const response = (transaction: ReturnType<typeof toTransactionBuild>) => ({ data: { type: 'transaction_builds' as const, attributes: { transaction } } });

describe('toTransactionBuild', () => {
  test("an EVM action's transaction fields, as the response schema documents them", () => {
    const build = toTransactionBuild({ chainId: 'ethereum', from: '0x01', to: '0x02', data: '0x1234', value: '5', gas: '21000', serialized: '' });
    expect(build).toEqual({ chain_id: 'ethereum', from: '0x01', to: '0x02', data: '0x1234', value: '5', gas: '21000' });
    expect(transactionBuildResponseSchema.parse(response(build))).toEqual(response(build));
  });

  test("a Solana action's serialized transaction, without EVM fields", () => {
    const build = toTransactionBuild({
      chainId: 'solana',
      from: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
      to: '',
      data: '',
      value: '',
      gas: '',
      serialized: 'AQID',
    });
    expect(build).toEqual({ chain_id: 'solana', from: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', serialized: 'AQID' });
    expect(transactionBuildResponseSchema.parse(response(build))).toEqual(response(build));
  });
});
