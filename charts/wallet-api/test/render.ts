// Runs the real helm binary on the chart and checks what it renders against the Kubernetes API
// schemas (kubernetes-models: the OpenAPI schemas of the API server, compiled to validators).
import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';

export const repoRoot = new URL('../../../', import.meta.url).pathname;
export const chartDir = new URL('../', import.meta.url).pathname;

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: unknown;
  data?: Record<string, string>;
}

export interface HelmResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Path of the pinned helm, built on first use by scripts/lib/helm.sh (a few minutes, then cached). */
export function locateHelm(): string {
  const result = spawnSync('bash', ['scripts/lib/helm.sh'], { cwd: repoRoot, encoding: 'utf8', timeout: 15 * 60_000 });
  const path = result.stdout.trim();
  if (result.status !== 0 || !path) {
    throw new Error(
      `the chart tests need helm, built by 'bash scripts/lib/helm.sh' (go install from the Go module proxy), ` +
        `which failed with status ${result.status}:\n${result.stderr}`,
    );
  }
  return path;
}

export function runHelm(helm: string, args: string[]): HelmResult {
  const result = spawnSync(helm, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `helm template` of the chart as release wallet-api in namespace wallet-api; throws with helm's message. */
export function renderChart(helm: string, args: string[]): Manifest[] {
  const result = runHelm(helm, ['template', 'wallet-api', chartDir, '--namespace', 'wallet-api', ...args]);
  if (result.status !== 0) throw new Error(`helm template ${args.join(' ')} failed:\n${result.stderr}`);
  return parseManifests(result.stdout);
}

export function parseManifests(text: string): Manifest[] {
  const manifests: Manifest[] = [];
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0) throw new Error(`rendered YAML does not parse: ${document.errors[0]?.message}`);
    const value: unknown = document.toJS();
    if (value !== null && value !== undefined) manifests.push(value as Manifest);
  }
  return manifests;
}

type Validated = new (data: never) => { validate(): void };

// Every kind the chart may render. A kind missing here fails validation, so a new template cannot
// slip past the schema check.
const models: Record<string, Validated> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
};

/** Schema errors of every manifest, as "Kind/name: message" (empty when all are valid). */
export function schemaErrors(manifests: Manifest[]): string[] {
  const errors: string[] = [];
  for (const manifest of manifests) {
    const where = `${manifest.kind}/${manifest.metadata?.name}`;
    const Model = models[`${manifest.apiVersion}/${manifest.kind}`];
    if (!Model) {
      errors.push(`${where}: no validator for ${manifest.apiVersion} ${manifest.kind}`);
      continue;
    }
    try {
      new Model(manifest as never).validate();
    } catch (error) {
      errors.push(`${where}: ${(error as Error).message}`);
    }
  }
  return errors;
}

export function ofKind<T = Manifest>(manifests: Manifest[], kind: string): T[] {
  return manifests.filter((manifest) => manifest.kind === kind) as T[];
}
