import { createGrpcClient, unary } from '@wallet-api/core/grpc';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createPublicClient, http, parseAbi } from 'viem';
const key = (await import('node:fs')).readFileSync('../../.data/demo-api-key', 'utf8').trim();
const page = await (await fetch('http://127.0.0.1:8080/v1/wallets/0x42941e989f777f89bd99086bccd22cb91a25c7ba/transactions/?page[size]=100', { headers: { authorization: 'Basic ' + Buffer.from(key + ':').toString('base64') } })).json() as any;
const refs = new Map<string, { chainId: string; address: string }>();
for (const tx of page.data) for (const t of [...tx.attributes.transfers, tx.attributes.fee]) {
  const chainId = tx.relationships.chain.data.id;
  const impl = t?.fungible_info?.implementations?.find((i: any) => i.chain_id === chainId);
  if (impl) refs.set(`${chainId}:${impl.address ?? ''}`, { chainId, address: impl.address ?? '' });
}
console.log('implementations', refs.size, [...refs.keys()].join(' '));
const client = createGrpcClient(ReferenceDataClient, '127.0.0.1:50051');
for (let i = 0; i < 5; i++) {
  let t = performance.now();
  const r = await unary(client, client.getFungibles, { context: undefined, currency: 'usd', fungibleIds: [], implementations: [...refs.values()] });
  const f = performance.now() - t;
  t = performance.now();
  await unary(client, client.getPrices, { context: undefined, currency: 'usd', queries: [...refs.values()].map((token) => ({ token, timestamp: '0' })) });
  console.log('GetFungibles', f.toFixed(1), 'ms', r.fungibles.length, 'fungibles; GetPrices now', (performance.now() - t).toFixed(1));
}
const abi = parseAbi(['function totalSupply() view returns (uint256)']);
const ports: Record<string, number> = { ethereum: 18545, base: 18546, arbitrum: 18547 };
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  await Promise.all([...refs.values()].filter((r) => r.address).map((r) => createPublicClient({ transport: http(`http://127.0.0.1:${ports[r.chainId]}`) }).readContract({ address: r.address as any, abi, functionName: 'totalSupply' })));
  console.log('supply reads', (performance.now() - t).toFixed(1));
}
client.close();
