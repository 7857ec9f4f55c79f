import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { createChangeVersions } from '@wallet-api/core/cache';
import { createLogger, maxLogLineBytes } from '@wallet-api/core/logger';
import { checkHealth, eventually, testConfig } from '@wallet-api/core/testing';
import { grpcServiceNames, startProcessStack, type ProcessStack } from '../../core/test/process-stack.js';
import { createApp } from '../src/app.js';
import { findOrganizationByKey } from '../src/auth/api-keys.js';
import { createBackends, type Backends } from '../src/grpc/backends.js';
import type { OpenApiDocument } from '../src/openapi/document.js';
import { hasControlBytes, hostileHeader, hostileJson, hostileRawBody, hostileString, killerValues, percentEncode } from './hostile-values.js';

// Every route the gateway declares, sent generated hostile values one parameter at a time: the
// gateway in this process, every service behind it a production process of its own. Whatever
// arrives, the answer is no 5xx, an error is a JSON:API error whose detail names what was wrong,
// and no log line of any process holds a control byte or runs past the bound.

const runsPerRoute = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 15);
const wallet = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

let stack: ProcessStack;
let server: Server;
let backends: Backends;
let redis: Redis;
let baseUrl: string;
let operations: Operation[];
const gatewayLines: string[] = [];

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  hasBody: boolean;
}

/** A value each parameter is happy with, so that a 400 after changing one names that one. */
const validValues: Record<string, string> = {
  address: wallet,
  addresses: wallet,
  chain_id: 'ethereum',
  fungible_id: 'eth',
  chart_period: 'day',
  nft_id: `ethereum:0x0000000000000000000000000000000000000001:1`,
  delivery_id: '1',
  implementation: 'ethereum:0x0000000000000000000000000000000000000001',
  'filter[references]': 'ethereum:0x0000000000000000000000000000000000000001:1',
  'input[chain_id]': 'ethereum',
  'input[fungible_id]': 'eth',
  'input[amount]': '1',
  'output[chain_id]': 'ethereum',
  'output[fungible_id]': 'usdc',
  from: wallet,
  'X-Env': '',
};

const callbackUrl = 'http://127.0.0.1:9/hooks';
const validBodies: Record<string, Record<string, unknown>> = {
  'POST /v1/tx-subscriptions/': { callback_url: callbackUrl, addresses: [wallet], chain_ids: ['ethereum'] },
  'PATCH /v1/tx-subscriptions/{subscription_id}/callback_url': { callback_url: callbackUrl },
  'PATCH /v1/tx-subscriptions/{subscription_id}/chain_ids': { chain_ids: ['ethereum'] },
  'PATCH /v1/tx-subscriptions/{subscription_id}/filters': { filters: { exclude: { trash: true } } },
  'PATCH /v1/tx-subscriptions/{subscription_id}/wallets': { add: [wallet], remove: [] },
  'PUT /v1/tx-subscriptions/{subscription_id}/wallets': { addresses: [wallet] },
  'POST /v1/transactions/build-action/': { action_id: 'act_1' },
  'POST /v1/transactions/dismiss-action/': { action_id: 'act_1', signature: `0x${'ab'.repeat(65)}` },
};

type Mutation =
  | { kind: 'parameter'; parameter: Parameter; value: string }
  | { kind: 'array-form'; parameter: Parameter; value: string }
  | { kind: 'repeated'; parameter: Parameter; values: [string, string] }
  | { kind: 'body-field'; field: string; value: unknown }
  | { kind: 'raw-body'; body: string };

interface Sent {
  url: string;
  init: RequestInit;
  /** What a 400's detail must name (one of), when the unchanged request is accepted. */
  names?: string[];
}

// The spec words a refused chain as `chain <id> does not support positions` (or transactions, or
// this wallet address type), naming the chain rather than the parameter; the network (X-Env)
// decides which chains exist.
const chainParameters = new Set(['X-Env', 'filter[chain_ids]', 'chain_ids']);
const namesOf = (parameter: string) => (chainParameters.has(parameter) ? [parameter, 'chain '] : [parameter]);

function request(operation: Operation, mutation: Mutation | undefined): Sent {
  const key = `${operation.method} ${operation.path}`;
  // Required parameters, and optional ones with a value above, are sent; the rest are left out.
  const sent = operation.parameters.filter((parameter) => parameter.required || parameter.in === 'path' || validValues[parameter.name] !== undefined);
  const values = new Map(sent.map((parameter) => [parameter.name, validValues[parameter.name] ?? '']));
  const query: string[] = [];
  const headers: Record<string, string> = { authorization: stack.authorization };
  let body: string | undefined = validBodies[key] ? JSON.stringify(validBodies[key]) : undefined;
  let names: string[] | undefined;
  let skip: string | undefined;
  switch (mutation?.kind) {
    case 'parameter':
      if (!operation.parameters.includes(mutation.parameter)) query.push(`${mutation.parameter.name}=${percentEncode(mutation.value)}`);
      values.set(mutation.parameter.name, mutation.value);
      names = namesOf(mutation.parameter.name);
      break;
    case 'array-form':
      skip = mutation.parameter.name;
      query.push(`${mutation.parameter.name}[]=${percentEncode(mutation.value)}`);
      names = [`${mutation.parameter.name}[]`];
      break;
    case 'repeated':
      skip = mutation.parameter.name;
      for (const value of mutation.values) query.push(`${mutation.parameter.name}=${percentEncode(value)}`);
      names = [mutation.parameter.name];
      break;
    case 'body-field':
      body = JSON.stringify({ ...validBodies[key], [mutation.field]: mutation.value });
      names = namesOf(mutation.field);
      break;
    case 'raw-body':
      body = mutation.body;
      break;
  }
  let path = operation.path;
  for (const parameter of operation.parameters) {
    const value = values.get(parameter.name);
    if (value === undefined || parameter.name === skip) continue;
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, percentEncode(value));
    else if (parameter.in === 'query') query.push(`${parameter.name}=${percentEncode(value)}`);
    else if (value !== '') headers[parameter.name] = value;
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  const url = `${baseUrl}${path}${query.length ? `?${query.join('&')}` : ''}`;
  return {
    url,
    init: { method: operation.method, headers, ...(body !== undefined ? { body } : {}), signal: AbortSignal.timeout(30_000) },
    ...(names ? { names } : {}),
  };
}

function mutations(operation: Operation): fc.Arbitrary<Mutation> {
  const choices: fc.Arbitrary<Mutation>[] = [];
  for (const parameter of operation.parameters) {
    // An empty path segment addresses another route (`/v1/nfts/` is the list), whose own 400 names its own parameters.
    const value = parameter.in === 'header' ? hostileHeader : parameter.in === 'path' ? hostileString.filter((text) => text !== '') : hostileString;
    choices.push(value.map((text) => ({ kind: 'parameter', parameter, value: text })));
    if (parameter.in === 'query') {
      choices.push(hostileString.map((text) => ({ kind: 'array-form', parameter, value: text })));
      choices.push(fc.tuple(hostileString, hostileString).map((pair) => ({ kind: 'repeated', parameter, values: pair })));
    }
  }
  if (operation.hasBody) {
    const fields = Object.keys(validBodies[`${operation.method} ${operation.path}`] ?? { unknown_field: 1 });
    choices.push(
      fc.tuple(fc.constantFrom(...fields, 'unknown_field', '__proto__'), hostileJson).map(([field, value]) => ({ kind: 'body-field', field, value })),
    );
    choices.push(hostileRawBody.map((body) => ({ kind: 'raw-body', body })));
  }
  // A route without parameters or a body still gets a query string it does not read.
  if (choices.length === 0)
    choices.push(hostileString.map((text) => ({ kind: 'parameter', parameter: { name: 'unread', in: 'query', required: false }, value: text })));
  return fc.oneof(...choices);
}

/** Every parameter (and body field) with each killer value, and each query parameter in array form. */
function killerExamples(operation: Operation): [Mutation][] {
  const examples: Mutation[] = [];
  for (const parameter of operation.parameters) {
    // Header values with CR, LF or NUL cannot be sent at all.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
    const values = parameter.in === 'header' ? killerValues.filter((value) => !/[\r\n\u0000]/.test(value) && !/[\ud800-\udfff]/.test(value)) : killerValues;
    for (const value of values) examples.push({ kind: 'parameter', parameter, value });
    if (parameter.in === 'query') examples.push({ kind: 'array-form', parameter, value: 'x' });
  }
  for (const field of Object.keys(validBodies[`${operation.method} ${operation.path}`] ?? {})) {
    for (const value of [...killerValues, [killerValues[0]], { [killerValues[0]!]: 1 }]) examples.push({ kind: 'body-field', field, value });
  }
  return examples.map((mutation) => [mutation]);
}

interface Answer {
  status: number;
  contentType: string | null;
  body: string;
}

async function send({ url, init }: Sent): Promise<Answer> {
  const response = await fetch(url, init);
  return { status: response.status, contentType: response.headers.get('content-type'), body: await response.text() };
}

beforeAll(async () => {
  // Info level: the services' start lines show that their output is read.
  stack = await startProcessStack({ name: 'fuzz', env: { CALLBACK_ALLOW_LIST: 'loopback', LOG_LEVEL: 'info' }, roles: ['pending-orders'] });
  for (const name of grpcServiceNames) stack.start(name);
  await Promise.all(grpcServiceNames.map((name) => eventually(() => checkHealth(stack.grpcAddress(name), ''), 60_000)));
  redis = new Redis(testConfig().REDIS_URL);
  backends = createBackends({
    referenceData: stack.grpcAddress('reference-data'),
    indexer: stack.grpcAddress('indexer'),
    positions: stack.grpcAddress('positions'),
    chart: stack.grpcAddress('chart'),
    pnl: stack.grpcAddress('pnl'),
    nft: stack.grpcAddress('nft'),
    subscription: stack.grpcAddress('subscription'),
  });
  const app = createApp({
    lookupOrganization: (key) => findOrganizationByKey(stack.postgres.prisma, key),
    redis,
    backends,
    publicUrl: 'https://api.wallet.test',
    rateLimits: { perSecond: 1_000_000, burst: 1_000_000 },
    logger: createLogger('gateway', 'info', (line) => void gatewayLines.push(...line.split('\n').filter(Boolean))),
    checkResponses: true,
    changes: createChangeVersions(redis, { keyPrefix: stack.suffix }),
  });
  server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const created = await send(request({ method: 'POST', path: '/v1/tx-subscriptions/', parameters: [], hasBody: true }, undefined));
  expect(created.status).toBe(201);
  validValues.subscription_id = (JSON.parse(created.body) as { data: { id: string } }).data.id;

  const document = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as OpenApiDocument;
  operations = Object.entries(document.paths ?? {}).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, { parameters?: Parameter[]; requestBody?: unknown }>).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      parameters: (operation.parameters ?? []).map(({ name, in: location, required }) => ({ name, in: location, required: required ?? false })),
      hasBody: operation.requestBody !== undefined,
    })),
  );
  // Deleting the subscription comes last: the routes after it would all read a deleted one.
  operations.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  backends?.close();
  redis?.disconnect();
  await stack?.stop();
});

describe('every route under hostile input', () => {
  test('the document declares the routes the fuzzing covers', () => {
    expect(operations.length).toBeGreaterThanOrEqual(45);
  });

  test('no 5xx; every error is a JSON:API error whose detail names the parameter changed', async () => {
    const failures: string[] = [];
    const refusedUnchanged: string[] = [];
    for (const operation of operations) {
      const baseline = await send(request(operation, undefined));
      expect({ operation: `${operation.method} ${operation.path}`, status: baseline.status < 500 }).toEqual({
        operation: `${operation.method} ${operation.path}`,
        status: true,
      });
      // A 404 is answered after every parameter was read: the unchanged request passed them all.
      const accepted = baseline.status < 300 || baseline.status === 404;
      const examples = killerExamples(operation);
      if (!accepted) refusedUnchanged.push(`${operation.method} ${operation.path} ${baseline.status} ${baseline.body.slice(0, 200)}`);
      await fc
        .assert(
          fc.asyncProperty(mutations(operation), async (mutation) => {
            const sent = request(operation, mutation);
            const answer = await send(sent);
            const problem = judge(answer, accepted ? sent.names : undefined);
            if (problem) failures.push(`${operation.method} ${operation.path} ${JSON.stringify(mutation).slice(0, 300)}: ${problem}`);
            return problem === undefined;
          }),
          // Examples count towards numRuns: the random runs come on top of them.
          { numRuns: examples.length + runsPerRoute, examples, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) },
        )
        .catch(() => undefined);
    }
    expect(failures.slice(0, 10)).toEqual([]);
    // Where the unchanged request is refused, a 400 cannot be pinned on the changed parameter.
    expect(refusedUnchanged).toEqual([]);
  }, 600_000);

  test('no log line of the gateway or any service holds a control byte or runs past the bound', () => {
    const lines = [
      ...gatewayLines.map((line) => ['gateway', line] as const),
      ...grpcServiceNames.flatMap((name) => stack.output(name).map((line) => [name, line] as const)),
    ];
    expect(lines.length).toBeGreaterThan(0);
    const bad = lines.filter(([, line]) => hasControlBytes(line) || Buffer.byteLength(line) > maxLogLineBytes);
    expect(bad.map(([name, line]) => `${name}: ${line.slice(0, 300)}`)).toEqual([]);
  });
});

/** What is wrong with an answer to a hostile request, if anything. */
function judge(answer: Answer, names: string[] | undefined): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.body.slice(0, 300)}`;
  if (answer.status < 400) return undefined;
  if (!answer.contentType?.startsWith('application/json')) return `a ${answer.status} as ${answer.contentType}`;
  let detail: unknown;
  try {
    detail = (JSON.parse(answer.body) as { errors?: { title?: unknown; detail?: unknown }[] }).errors?.[0]?.detail;
  } catch {
    return `a ${answer.status} whose body is not JSON`;
  }
  if (typeof detail !== 'string' || detail === '') return `a ${answer.status} without a detail: ${answer.body.slice(0, 300)}`;
  if (answer.status === 400 && names && !names.some((name) => detail.includes(name)))
    return `a 400 whose detail does not name ${names.join(' or ')}: ${detail.slice(0, 300)}`;
  return undefined;
}
