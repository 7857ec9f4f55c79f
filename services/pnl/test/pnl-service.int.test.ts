import { createGrpcClient, startGrpcServer, unary, type GrpcServer } from '@wallet-api/core/grpc';
import { GetWalletPnlRequest, PnlClient } from '@wallet-api/core/proto/pnl';
import { setupChangeVersions, testLogger } from '@wallet-api/core/testing';
import type { PnlRequest, PnlResult, WalletPnl } from '../src/compute/wallet-pnl.js';
import { pnlFigures } from '../src/fifo/pnl-figures.js';
import { TooManyTransactions } from '../src/history/history-reader.js';
import { pnlService } from '../src/grpc/pnl-service.js';
import { BeyondMarkAllowance } from '../src/marks/marks.js';

// GetWalletPnl's computations through gRPC, with the real change tokens in Redis: the first
// request waits a while and answers UNAVAILABLE (the gateway's 503 with Retry-After) while the
// computation goes on, a later one gets its result, a change of the wallet's history computes
// again, and a wallet past the limit is refused with FAILED_PRECONDITION (422) every time.

const changes = setupChangeVersions();
const wallet = '0x00000000000000000000000000000000000000aa';
const crowded = '0x00000000000000000000000000000000000000bb';
const farFromMarks = '0x00000000000000000000000000000000000000cc';

/** A computation that finishes when the test lets it, counting how often it ran. */
function gatedPnl() {
  const runs: PnlRequest[] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const pnl: WalletPnl = {
    async compute(request): Promise<PnlResult> {
      runs.push(request);
      if (request.addresses.includes(crowded)) throw new TooManyTransactions(1_000_000);
      if (request.addresses.includes(farFromMarks)) throw new BeyondMarkAllowance('since', 4_321);
      await gate;
      return { figures: { ...pnlFigures([]), realizedGain: runs.length }, excludedFungibleIds: [], excludedFungibleImplementations: [] };
    },
  };
  return {
    pnl,
    runs,
    open: () => release(),
  };
}

let server: GrpcServer;
let client: PnlClient;
const gated = gatedPnl();

beforeAll(async () => {
  server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [pnlService({ pnl: gated.pnl, versions: changes.versions, waitMs: 200 })],
    logger: testLogger,
  });
  client = createGrpcClient(PnlClient, `127.0.0.1:${server.port}`);
});

afterAll(async () => {
  client?.close();
  await server?.shutdown(1_000);
  changes.close();
});

const ask = (address = wallet) =>
  unary(client, client.getWalletPnl, GetWalletPnlRequest.fromPartial({ addresses: [address], chainIds: ['ethereum'], currency: 'usd' }));

test('the first request answers UNAVAILABLE while the wallet is computed; the next gets the result; a change of its history computes again', async () => {
  await expect(ask()).rejects.toMatchObject({ code: 14, details: "the wallet's profit and loss is being computed; retry shortly" });
  await expect(ask()).rejects.toMatchObject({ code: 14 });
  expect(gated.runs).toHaveLength(1);
  gated.open();
  expect((await ask()).figures?.realizedGain).toBe(1);
  expect((await ask()).figures?.realizedGain).toBe(1);
  expect(gated.runs).toHaveLength(1);

  await changes.versions.walletsChanged([wallet], 'history');
  expect((await ask()).figures?.realizedGain).toBe(2);
  expect(gated.runs).toHaveLength(2);
});

test('a wallet past the transaction limit is refused with FAILED_PRECONDITION, once detected for good', async () => {
  const before = gated.runs.length;
  for (let attempt = 0; attempt < 2; attempt++) {
    await expect(ask(crowded)).rejects.toMatchObject({
      code: 9,
      details: 'the wallet has more than 1,000,000 transactions, beyond what profit and loss is computed for',
    });
  }
  expect(gated.runs.length - before).toBe(1);
});

test('a since/till too far from the marks is refused with FAILED_PRECONDITION naming the distance', async () => {
  await expect(ask(farFromMarks)).rejects.toMatchObject({
    code: 9,
    details: 'since lies 4,321 transactions from the nearest mark (now, 1 day, 1 week, 1 month, 1 year ago, start of the year); at most 2,999 are allowed',
  });
});
