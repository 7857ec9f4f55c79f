// The chart checked by the real tools: `helm lint --strict` and `helm template` of the pinned helm
// (scripts/lib/helm.sh), every rendered object validated against the Kubernetes API schemas, and
// the rendered content held to what a production deployment needs.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IService } from 'kubernetes-models/v1/Service';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { defaultMetricsPorts } from '@wallet-api/core/config';
import { parseChainsConfig } from '../../../services/reference-data/src/chains/chain-config.js';
import { chartDir, locateHelm, ofKind, renderChart, runHelm, schemaErrors, type Manifest } from './render.js';

// The services' metrics layout (each serves GET /metrics on <NAME>_METRICS_PORT): the chart must use the code's ports.
const metricsPorts: Readonly<Record<string, number>> = defaultMetricsPorts;
const services = Object.keys(metricsPorts).sort();
const hookAnnotation = 'pre-install,pre-upgrade';
// What the chart cannot invent: the database credentials and the webhook keys.
const databaseUrl = 'postgresql://wallet_api:secret@postgres:5432/wallet_api';
const requiredValues = ['--set', `postgresql.url=${databaseUrl}`, '--set', 'webhooks.existingSecret=wallet-api-webhooks'];
const productionFile = `${chartDir}values-production.yaml`;
const invalidFile = `${chartDir}test/invalid-values.yaml`;

interface ServiceValues {
  replicas?: number;
  resources?: { requests?: Record<string, string | number> };
  autoscaling?: { enabled?: boolean; minReplicas?: number; maxReplicas?: number; targetCPUUtilizationPercentage?: number };
  podDisruptionBudget?: { enabled?: boolean; minAvailable?: number | string; maxUnavailable?: number | string };
}
interface ProductionValues {
  kafka: { brokers: string[] };
  clickhouse: { existingSecret: string; existingSecretKey: string };
  postgresql: { existingSecret: string; existingSecretKey: string };
  redis: { existingSecret: string; existingSecretKey: string };
  ingress: { host: string; tls: { secretName: string } };
  serviceMonitor: { interval: string; labels: Record<string, string> };
  services: Record<string, ServiceValues>;
}
const production = parse(readFileSync(productionFile, 'utf8')) as ProductionValues;

let helm = '';
beforeAll(() => {
  helm = locateHelm();
}, 16 * 60_000);

const component = (manifest: { metadata?: { labels?: Record<string, string> } }): string => manifest.metadata?.labels?.['app.kubernetes.io/component'] ?? '';
const podSpec = (workload: IDeployment | IJob): IPodSpec => workload.spec!.template.spec!;
const onlyContainer = (workload: IDeployment | IJob): IContainer => {
  expect(podSpec(workload).containers).toHaveLength(1);
  return podSpec(workload).containers[0]!;
};
const env = (container: IContainer, name: string) => container.env?.find((entry) => entry.name === name);
const byComponent = <T extends Manifest>(manifests: Manifest[], kind: string, name: string): T => {
  const found = ofKind<T>(manifests, kind).filter((manifest) => component(manifest) === name);
  expect(found.map((manifest) => `${kind}/${manifest.metadata.name}`)).toEqual([`${kind}/wallet-api-${name}`]);
  return found[0]!;
};
const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

// Container settings win over the pod's, as the kubelet applies them.
function expectLockedDown(workload: IDeployment | IJob): void {
  const pod = podSpec(workload).securityContext ?? {};
  for (const container of podSpec(workload).containers) {
    const context = { ...pod, ...container.securityContext };
    const where = `${workload.kind}/${workload.metadata?.name}`;
    expect({ where, runAsNonRoot: context.runAsNonRoot }).toEqual({ where, runAsNonRoot: true });
    expect({ where, runAsUser: context.runAsUser }).toEqual({ where, runAsUser: expect.any(Number) });
    expect(context.runAsUser).not.toBe(0);
    expect({ where, escalation: context.allowPrivilegeEscalation }).toEqual({ where, escalation: false });
    expect({ where, readOnlyRoot: context.readOnlyRootFilesystem }).toEqual({ where, readOnlyRoot: true });
    expect({ where, drop: context.capabilities?.drop }).toEqual({ where, drop: expect.arrayContaining(['ALL']) });
    expect(context.capabilities?.add ?? []).toEqual([]);
  }
}

/** What every rendering must hold, whatever the values. */
function expectDeployable(manifests: Manifest[]): void {
  expect(schemaErrors(manifests)).toEqual([]);
  // The chains file reference-data mounts passes reference-data's own parser (a Solana chain's external_id included).
  for (const configMap of ofKind<IConfigMap & Manifest>(manifests, 'ConfigMap').filter((manifest) => manifest.metadata.name.endsWith('-chains'))) {
    expect(parseChainsConfig(JSON.parse(configMap.data!['chains.json']!)).length).toBeGreaterThan(0);
  }

  const deployments = ofKind<IDeployment & Manifest>(manifests, 'Deployment');
  expect(deployments.map(component).sort()).toEqual(services);
  for (const deployment of deployments) {
    const name = component(deployment);
    const container = onlyContainer(deployment);
    const ports = container.ports ?? [];
    const portNamed = (portName: string) => ports.find((port) => port.name === portName)?.containerPort;

    if (name === 'gateway') {
      // The gateway is HTTP; its /healthz route answers the probes.
      const httpGet = { path: '/healthz', port: 'http' };
      expect(portNamed('http')).toBe(8080);
      expect(container.readinessProbe?.httpGet).toMatchObject(httpGet);
      expect(container.livenessProbe?.httpGet).toMatchObject(httpGet);
    } else {
      // grpc.health.v1.Health on the service's own gRPC port (overall status: no service name).
      const grpcPort = portNamed('grpc');
      expect(grpcPort).toEqual(expect.any(Number));
      for (const probe of [container.readinessProbe, container.livenessProbe]) {
        expect(probe?.grpc).toEqual({ port: grpcPort });
      }
    }

    expect({ name, requests: container.resources?.requests }).toEqual({
      name,
      requests: { cpu: expect.anything(), memory: expect.anything() },
    });
    expectLockedDown(deployment);

    const metricsPort = metricsPorts[name]!;
    const variable = `${name.toUpperCase().replace('-', '_')}_METRICS_PORT`;
    expect({ name, metrics: portNamed('metrics') }).toEqual({ name, metrics: metricsPort });
    expect(env(container, variable)?.value).toBe(String(metricsPort));

    const service = byComponent<IService & Manifest>(manifests, 'Service', name);
    expect(service.spec?.selector).toEqual(deployment.spec?.selector.matchLabels);
    expect(matches(service.spec!.selector!, deployment.spec?.template.metadata?.labels)).toBe(true);
    expect(service.spec?.ports).toContainEqual(expect.objectContaining({ name: 'metrics', port: metricsPort, targetPort: 'metrics' }));
  }

  const jobs = ofKind<IJob & Manifest>(manifests, 'Job');
  expect(jobs.map((job) => job.metadata.name).sort()).toEqual(['wallet-api-kafka-topics', 'wallet-api-migrate']);
  for (const job of jobs) {
    expect(job.metadata.annotations?.['helm.sh/hook']).toBe(hookAnnotation);
    expect(podSpec(job).restartPolicy).toBe('Never');
    expect(onlyContainer(job).resources?.requests).toEqual({ cpu: expect.anything(), memory: expect.anything() });
    expectLockedDown(job);
  }
  const migrate = jobs.find((job) => job.metadata.name === 'wallet-api-migrate')!;
  expect(onlyContainer(migrate).command).toEqual(['pnpm', '--filter', '@wallet-api/prisma-migrate', 'run', 'deploy']);
  expect(env(onlyContainer(migrate), 'DATABASE_URL')?.valueFrom?.secretKeyRef).toBeDefined();
}

describe('helm lint --strict', () => {
  it.each([
    ['the defaults', []],
    ['the production values', ['-f', productionFile]],
  ])('passes for %s', (_, args) => {
    const result = runHelm(helm, ['lint', '--strict', chartDir, ...args]);
    expect({ status: result.status, output: result.stdout + result.stderr }).toEqual({ status: 0, output: expect.stringContaining('0 chart(s) failed') });
  });
});

describe('default values', () => {
  let manifests: Manifest[] = [];
  beforeAll(() => {
    manifests = renderChart(helm, requiredValues);
  });

  it('render only valid Kubernetes objects: probes, requests, non-root, metrics ports, hook Jobs', () => {
    expectDeployable(manifests);
  });

  it('keep the optional objects off: no Ingress, HPA or ServiceMonitor; a PodDisruptionBudget for the gateway', () => {
    expect(ofKind(manifests, 'Ingress')).toEqual([]);
    expect(ofKind(manifests, 'HorizontalPodAutoscaler')).toEqual([]);
    expect(ofKind(manifests, 'ServiceMonitor')).toEqual([]);
    expect(ofKind(manifests, 'PodDisruptionBudget').map(component)).toEqual(['gateway']);
    expect(byComponent<IDeployment & Manifest>(manifests, 'Deployment', 'gateway').spec?.replicas).toBe(2);
  });

  it("keep credentials in the chart's Secret, and DATABASE_URL in a hook Secret made before the migration", () => {
    const secrets = ofKind(manifests, 'Secret');
    expect(secrets.map((secret) => secret.metadata.name).sort()).toEqual(['wallet-api', 'wallet-api-hooks']);
    const chartSecret = secrets.find((secret) => secret.metadata.name === 'wallet-api')!;
    expect(Object.keys(chartSecret.data ?? {}).sort()).toEqual(['CLICKHOUSE_PASSWORD', 'DATABASE_URL', 'REDIS_URL']);
    const hookSecret = secrets.find((secret) => secret.metadata.name === 'wallet-api-hooks')!;
    expect(Buffer.from(hookSecret.data?.DATABASE_URL ?? '', 'base64').toString()).toBe(databaseUrl);
    expect(hookSecret.metadata.annotations?.['helm.sh/hook']).toBe(hookAnnotation);
    const migrate = ofKind<IJob & Manifest>(manifests, 'Job').find((job) => job.metadata.name === 'wallet-api-migrate')!;
    expect(Number(hookSecret.metadata.annotations?.['helm.sh/hook-weight'])).toBeLessThan(Number(migrate.metadata.annotations?.['helm.sh/hook-weight']));
    expect(env(onlyContainer(migrate), 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({ name: 'wallet-api-hooks', key: 'DATABASE_URL' });
  });

  it('wire the nft service: the gateway dials its Service, it gets reference-data, the stores and the safe metadata settings', () => {
    const deployment = (name: string) => byComponent<IDeployment & Manifest>(manifests, 'Deployment', name);
    const chartSecret = (key: string) => ({ name: 'wallet-api', key });
    expect(env(onlyContainer(deployment('gateway')), 'NFT_GRPC_ADDRESS')?.value).toBe('wallet-api-nft.wallet-api.svc:50056');
    const nft = onlyContainer(deployment('nft'));
    expect(env(nft, 'NFT_GRPC_PORT')?.value).toBe('50056');
    // Chains' RPC URLs, tokens, prices, spam and NFT markets come from reference-data.
    expect(env(nft, 'REFERENCE_DATA_GRPC_ADDRESS')?.value).toBe('wallet-api-reference-data.wallet-api.svc:50051');
    // Ownership in PostgreSQL, the indexer's topics from Kafka, the answer cache's change tokens in Redis.
    expect(env(nft, 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual(chartSecret('DATABASE_URL'));
    expect(env(nft, 'KAFKA_BROKERS')?.value).toBe('kafka:9092');
    expect(env(nft, 'REDIS_URL')?.valueFrom?.secretKeyRef).toEqual(chartSecret('REDIS_URL'));
    // Token URIs are anyone's choice: no private address is allow-listed for metadata by default.
    expect(env(nft, 'NFT_METADATA_ALLOW_LIST')?.value).toBe('');
    expect(env(nft, 'NFT_IPFS_GATEWAY')?.value).toBe('https://ipfs.io/ipfs/');
  });

  it("take the gateway's NFT_GRPC_ADDRESS from services.gateway.nftAddress when set", () => {
    const overridden = renderChart(helm, [...requiredValues, '--set', 'services.gateway.nftAddress=nft.other-namespace.svc:6000']);
    const gateway = onlyContainer(byComponent<IDeployment & Manifest>(overridden, 'Deployment', 'gateway'));
    expect(gateway.env?.filter((entry) => entry.name === 'NFT_GRPC_ADDRESS')).toEqual([{ name: 'NFT_GRPC_ADDRESS', value: 'nft.other-namespace.svc:6000' }]);
  });

  it('refuse to render without a database: the error names postgresql.url', () => {
    const result = runHelm(helm, ['template', 'wallet-api', chartDir]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('postgresql.url is required');
  });
});

describe('production values (values-production.yaml)', () => {
  let manifests: Manifest[] = [];
  beforeAll(() => {
    manifests = renderChart(helm, ['-f', productionFile]);
  });
  const deployment = (name: string) => byComponent<IDeployment & Manifest>(manifests, 'Deployment', name);

  it('render only valid Kubernetes objects: probes, requests, non-root, metrics ports, hook Jobs', () => {
    expectDeployable(manifests);
  });

  it('take every credential from the existing Secrets and create none', () => {
    expect(ofKind(manifests, 'Secret')).toEqual([]);
    const secretRef = (container: IContainer, name: string) => env(container, name)?.valueFrom?.secretKeyRef;
    const { postgresql, clickhouse, redis } = production;
    const workloads = [...ofKind<IDeployment>(manifests, 'Deployment'), ...ofKind<IJob>(manifests, 'Job')];
    for (const workload of workloads) {
      const container = onlyContainer(workload);
      if (workload.metadata?.name === 'wallet-api-kafka-topics') {
        expect(env(container, 'KAFKA_BROKERS')?.value).toBe(production.kafka.brokers.join(','));
        continue;
      }
      expect(secretRef(container, 'DATABASE_URL')).toEqual({ name: postgresql.existingSecret, key: postgresql.existingSecretKey });
      if (workload.kind === 'Job') continue;
      expect(env(container, 'KAFKA_BROKERS')?.value).toBe(production.kafka.brokers.join(','));
      expect(secretRef(container, 'CLICKHOUSE_PASSWORD')).toEqual({ name: clickhouse.existingSecret, key: clickhouse.existingSecretKey });
    }
    // The gateway reads the answer cache's change tokens that these services write.
    for (const name of ['gateway', 'indexer', 'positions', 'reference-data', 'chart', 'pnl', 'nft']) {
      expect(secretRef(onlyContainer(deployment(name)), 'REDIS_URL')).toEqual({ name: redis.existingSecret, key: redis.existingSecretKey });
    }
    expect(env(onlyContainer(deployment('subscription')), 'REDIS_URL')).toBeUndefined();
    // The chart service asks reference-data for tokens, prices and which wallets are served, and
    // positions for protocol positions at past blocks; the gateway asks it for charts.
    expect(env(onlyContainer(deployment('chart')), 'REFERENCE_DATA_GRPC_ADDRESS')?.value).toBe('wallet-api-reference-data.wallet-api.svc:50051');
    expect(env(onlyContainer(deployment('chart')), 'POSITIONS_GRPC_ADDRESS')?.value).toBe('wallet-api-positions.wallet-api.svc:50053');
    // Profit and loss replays the wallets' history from the indexer, priced by reference-data.
    expect(env(onlyContainer(deployment('pnl')), 'INDEXER_GRPC_ADDRESS')?.value).toBe('wallet-api-indexer.wallet-api.svc:50052');
    expect(env(onlyContainer(deployment('pnl')), 'REFERENCE_DATA_GRPC_ADDRESS')?.value).toBe('wallet-api-reference-data.wallet-api.svc:50051');
    expect(env(onlyContainer(deployment('gateway')), 'CHART_GRPC_ADDRESS')?.value).toBe('wallet-api-chart.wallet-api.svc:50055');
    expect(env(onlyContainer(deployment('gateway')), 'PNL_GRPC_ADDRESS')?.value).toBe('wallet-api-pnl.wallet-api.svc:50054');
    // NFTs: the gateway asks the nft service, which reads the chains (their RPC URLs) and the registry through reference-data.
    expect(env(onlyContainer(deployment('gateway')), 'NFT_GRPC_ADDRESS')?.value).toBe('wallet-api-nft.wallet-api.svc:50056');
    expect(env(onlyContainer(deployment('nft')), 'REFERENCE_DATA_GRPC_ADDRESS')?.value).toBe('wallet-api-reference-data.wallet-api.svc:50051');
    expect(env(onlyContainer(deployment('nft')), 'NFT_METADATA_ALLOW_LIST')?.value).toBe('');
    expect(secretRef(onlyContainer(deployment('reference-data')), 'CHAIN_RPC_URL_ETHEREUM')).toEqual({ name: 'wallet-api-chain-rpc', key: 'ethereum' });
  });

  it('serve the gateway through an Ingress with TLS for its host', () => {
    const [ingress, ...others] = ofKind<IIngress & Manifest>(manifests, 'Ingress');
    expect(others).toEqual([]);
    const { host, tls } = production.ingress;
    expect(ingress?.spec?.tls).toEqual([{ hosts: [host], secretName: tls.secretName }]);
    expect(ingress?.spec?.rules).toEqual([
      {
        host,
        http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'wallet-api-gateway', port: { name: 'http' } } } }] },
      },
    ]);
    const gatewayService = byComponent<IService & Manifest>(manifests, 'Service', 'gateway');
    expect(gatewayService.spec?.ports?.map((port) => port.name)).toContain('http');
    expect(env(onlyContainer(deployment('gateway')), 'PUBLIC_URL')?.value).toBe(`https://${host}`);
  });

  it('scrape every service with a ServiceMonitor selecting its Service and metrics port', () => {
    const monitors = ofKind<IServiceMonitor & Manifest>(manifests, 'ServiceMonitor');
    const allServices = ofKind<IService & Manifest>(manifests, 'Service');
    expect(monitors.map(component).sort()).toEqual(services);
    for (const monitor of monitors) {
      const name = component(monitor);
      expect(monitor.metadata.labels).toMatchObject(production.serviceMonitor.labels);
      expect(monitor.spec.namespaceSelector).toEqual({ matchNames: ['wallet-api'] });
      const selected = allServices.filter((service) => matches(monitor.spec.selector.matchLabels ?? {}, service.metadata.labels));
      expect(selected.map((service) => service.metadata.name)).toEqual([`wallet-api-${name}`]);
      expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: 'metrics', path: '/metrics', interval: production.serviceMonitor.interval })]);
      const metricsPort = selected[0]!.spec?.ports?.find((port) => port.name === 'metrics');
      expect(metricsPort?.port).toBe(metricsPorts[name]);
    }
  });

  it('autoscale the services that enable it, and only those', () => {
    const autoscaled = Object.entries(production.services).filter(([, values]) => values.autoscaling?.enabled);
    expect(autoscaled.length).toBeGreaterThan(0);
    const hpas = ofKind<IHorizontalPodAutoscaler & Manifest>(manifests, 'HorizontalPodAutoscaler');
    expect(hpas.map(component).sort()).toEqual(autoscaled.map(([name]) => name).sort());
    for (const [name, values] of autoscaled) {
      const hpa = byComponent<IHorizontalPodAutoscaler & Manifest>(manifests, 'HorizontalPodAutoscaler', name);
      expect(hpa.spec?.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment(name).metadata.name });
      expect(hpa.spec).toMatchObject({ minReplicas: values.autoscaling?.minReplicas, maxReplicas: values.autoscaling?.maxReplicas });
      expect(hpa.spec?.metrics).toContainEqual({
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: values.autoscaling?.targetCPUUtilizationPercentage } },
      });
      // A replica count in the Deployment would fight the autoscaler on every upgrade.
      expect(deployment(name).spec?.replicas).toBeUndefined();
    }
  });

  it('protect the services that enable it with a PodDisruptionBudget over their pods', () => {
    const protectedServices = Object.entries(production.services).filter(([, values]) => values.podDisruptionBudget?.enabled);
    expect(ofKind(manifests, 'PodDisruptionBudget').map(component).sort()).toEqual(protectedServices.map(([name]) => name).sort());
    for (const [name, values] of protectedServices) {
      const pdb = byComponent<IPodDisruptionBudget & Manifest>(manifests, 'PodDisruptionBudget', name);
      expect(pdb.spec?.selector?.matchLabels).toEqual(deployment(name).spec?.selector.matchLabels);
      const { minAvailable, maxUnavailable } = values.podDisruptionBudget!;
      expect(pdb.spec).toMatchObject(minAvailable ? { minAvailable } : { maxUnavailable });
    }
  });

  it('size every container as the file says', () => {
    for (const [name, values] of Object.entries(production.services)) {
      if (!values.resources?.requests) continue;
      expect({ name, requests: onlyContainer(deployment(name)).resources?.requests }).toEqual({ name, requests: values.resources.requests });
    }
    expect(deployment('subscription').spec?.replicas).toBe(production.services.subscription?.replicas);
  });
});

describe('values.schema.json', () => {
  // Each mistake of invalid-values.yaml, as helm's JSON-schema errors locate it.
  const mistakes = [
    ["'/services/gateway'", 'resorces'],
    ["'/services/indexer/replicas'", 'maximum'],
    ["'/services/positions/metricsPort'", 'want integer'],
    ["'/serviceMonitor/interval'", '30 seconds'],
    ["'/redis/url'", 'rediss://'],
  ];

  it.each([
    ['helm lint --strict', ['lint', '--strict', chartDir, '-f', invalidFile]],
    ['helm template', ['template', 'wallet-api', chartDir, '-f', invalidFile]],
  ])('makes %s fail, naming every bad field', (_, args) => {
    const result = runHelm(helm, args);
    const output = result.stdout + result.stderr;
    expect(result.status).not.toBe(0);
    expect(output).toContain("values don't meet the specifications of the schema");
    for (const [path, detail] of mistakes) {
      const line = output.split('\n').find((candidate) => candidate.includes(`at ${path}`) && candidate.includes(detail!));
      expect({ path, line }).toEqual({ path, line: expect.any(String) });
    }
  });
});
