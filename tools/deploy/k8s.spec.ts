/**
 * deploy/k8s validated offline: the generated files are what tools/deploy/k8s-manifests.ts writes
 * (HTTPRoutes included, from the gateway's route table); `kubectl kustomize` renders each overlay;
 * every rendered object validates against the Kubernetes schemas (kubernetes-models); and the
 * rules of deploy/README.md hold (probes, non-root, read-only root, no token mount, who may call
 * whom).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { parseAllDocuments, type Tags } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Service, ServiceAccount } from 'kubernetes-models/v1';
import { upstreamsFrom } from '@itp/gateway/upstreams';
import { SERVICES, generatedFiles } from './k8s-manifests.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type K8sObject = { apiVersion: string; kind: string; metadata: { name: string }; spec?: any };

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1/Job': Job,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
};

async function kustomize(dir: string, base = root): Promise<K8sObject[]> {
  let stdout: string;
  try {
    ({ stdout } = await run('kubectl', ['kustomize', join(base, dir)], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
      maxBuffer: 20 * 1024 * 1024,
    }));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        'kubectl is not installed: install kubectl ≥ 1.21 (kustomize 4+; Debian bookworm only has 1.20)',
      );
    }
    throw err;
  }
  // The API server's YAML reader (go-yaml) keeps a hex literal wider than 64 bits, such as a
  // contract address that kustomize writes unquoted, a string; the `yaml` package would read it
  // as a number. Read hex as strings here too.
  const noHex = (tags: Tags): Tags =>
    tags.filter((tag) => (tag as { format?: string }).format !== 'HEX');
  return parseAllDocuments(stdout, { customTags: noHex }).map((doc) => doc.toJS() as K8sObject);
}

const of = (objects: K8sObject[], kind: string): K8sObject[] =>
  objects.filter((o) => o.kind === kind);

describe('deploy/k8s', () => {
  it('the committed generated files are what tools/deploy/k8s-manifests.ts writes', async () => {
    const stale: string[] = [];
    for (const [path, content] of Object.entries(await generatedFiles())) {
      if (readFileSync(join(root, path), 'utf8') !== content) stale.push(path);
    }
    expect(stale).toEqual([]); // run: npx tsx tools/deploy/k8s-manifests.ts
  }, 30_000);

  it("routes in the HTTPRoutes exactly the gateway's public paths, to the same services", async () => {
    // The Component, as an overlay uses it (it cannot be built alone).
    const routes = of(await kustomize('deploy/k8s/overlays/prod-gateway-api'), 'HTTPRoute');
    const byService = (a: { service: string }, b: { service: string }): number =>
      a.service.localeCompare(b.service);
    const served = routes.map((route) => ({
      service: route.metadata.name,
      backend: route.spec.rules[0].backendRefs[0].name,
      paths: route.spec.rules[0].matches.map((m: { path: { value: string } }) => m.path.value),
    }));
    const table = upstreamsFrom({
      AUTH_SERVICE_URL: 'http://a',
      DID_SERVICE_URL: 'http://d',
      TOKEN_RPC_URL: 'http://t',
      BLOCK_RPC_URL: 'http://b',
    }).map((u) => ({
      service: u.name,
      backend: u.name,
      paths: u.paths.map((p) => p.replace(/\/\*[A-Za-z_]+$/, '')),
    }));
    expect(served.sort(byService)).toEqual(table.sort(byService));
  }, 30_000);

  describe.each(['dev', 'prod', 'prod-gateway-api'])('overlay %s', (overlay) => {
    let objects: K8sObject[] = [];

    beforeAll(async () => {
      objects = await kustomize(`deploy/k8s/overlays/${overlay}`);
    }, 30_000);

    it('renders, and every object validates against the Kubernetes schemas', () => {
      expect(objects.length).toBeGreaterThan(30);
      const invalid: string[] = [];
      for (const object of objects) {
        const Model = MODELS[`${object.apiVersion}/${object.kind}`];
        // Gateway API routes: not a core kind (its CRDs come with the engine); checked below.
        if (!Model && object.kind === 'HTTPRoute') continue;
        if (!Model) {
          invalid.push(`${object.kind} ${object.metadata.name}: no schema (${object.apiVersion})`);
          continue;
        }
        try {
          new Model(object as never).validate();
        } catch (err) {
          invalid.push(`${object.kind} ${object.metadata.name}: ${(err as Error).message}`);
        }
      }
      expect(invalid).toEqual([]);
    });

    it('has per service a Deployment, Service, HPA, PDB, NetworkPolicy and ServiceAccount', () => {
      for (const kind of [
        'Deployment',
        'Service',
        'HorizontalPodAutoscaler',
        'PodDisruptionBudget',
        'ServiceAccount',
      ]) {
        expect({
          kind,
          names: of(objects, kind)
            .map((o) => o.metadata.name)
            .sort(),
        }).toEqual({
          kind,
          names: SERVICES.map((s) => s.name).sort(),
        });
      }
      // Named after the image tag (the overlay's replacements): a new release is a new Job.
      const jobs = of(objects, 'Job')
        .map((j) => j.metadata.name)
        .sort();
      const tagOf = (name: string): string | undefined =>
        of(objects, 'Deployment')
          .find((d) => d.metadata.name === name)
          ?.spec.template.spec.containers[0].image.split(':')[1];
      expect(jobs).toEqual(
        SERVICES.filter((s) => s.migrates)
          .map((s) => `${s.name}-migrate-${tagOf(s.name)}`)
          .sort(),
      );
      for (const sa of of(objects, 'ServiceAccount')) {
        expect(
          (sa as { automountServiceAccountToken?: boolean }).automountServiceAccountToken,
        ).toBe(false);
      }
    });

    it('runs every pod non-root on a read-only root with probes, limits and secrets by reference', () => {
      for (const workload of [...of(objects, 'Deployment'), ...of(objects, 'Job')]) {
        const pod = workload.spec.template.spec;
        expect({ name: workload.metadata.name, token: pod.automountServiceAccountToken }).toEqual({
          name: workload.metadata.name,
          token: false,
        });
        for (const c of pod.containers) {
          expect(c.securityContext).toMatchObject({
            runAsNonRoot: true,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
          });
          expect(c.resources.limits).toEqual({
            cpu: expect.any(String),
            memory: expect.any(String),
          });
          expect(c.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
          for (const env of c.env ?? []) {
            // The one plain value: an address YAML must read as a string (quotedEnv).
            if (env.name === 'DID_REGISTRY_ADDRESS') {
              expect(env.value).toMatch(/^0x[0-9a-fA-F]{40}$/);
              continue;
            }
            // Nothing secret is written in the manifests: every secret comes from itp-secrets.
            expect({ name: env.name, from: env.valueFrom?.secretKeyRef?.name }).toEqual({
              name: env.name,
              from: 'itp-secrets',
            });
            // Keys set only during a key rotation are optional: pods start with or without them.
            expect({
              name: env.name,
              optional: env.valueFrom?.secretKeyRef?.optional === true,
            }).toEqual({
              name: env.name,
              optional: [
                'INTERNAL_API_ACCEPTED_TOKENS',
                'WALLET_PREVIOUS_MASTER_KEYS',
                'DID_KMS_PREVIOUS_SECRET_KEYS',
              ].includes(env.name),
            });
          }
        }
        if (workload.kind === 'Deployment') {
          const [c] = pod.containers;
          expect(c.livenessProbe.httpGet.path).toBe('/health/live');
          expect(c.readinessProbe.httpGet.path).toBe('/health/ready/self');
          expect(workload.spec.template.metadata.annotations['prometheus.io/scrape']).toBe('true');
        }
      }
    });

    it("caps each service's V8 heap below its container's memory limit (NODE_OPTIONS)", () => {
      for (const deployment of of(objects, 'Deployment')) {
        const [c] = deployment.spec.template.spec.containers;
        const mapName = c.envFrom?.find((e: { configMapRef?: { name: string } }) => e.configMapRef)
          ?.configMapRef.name;
        const map = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === mapName);
        const data = (map as { data?: Record<string, string> } | undefined)?.data;
        const heap = /--max-old-space-size=(\d+)/.exec(data?.NODE_OPTIONS ?? '')?.[1];
        const limit = /^(\d+)Mi$/.exec(c.resources.limits.memory)?.[1];
        expect({ name: deployment.metadata.name, heap: Number(heap) > 0 }).toEqual({
          name: deployment.metadata.name,
          heap: true,
        });
        expect(Number(heap)).toBeLessThanOrEqual(Number(limit) * 0.75);
      }
    });

    it('lets only the gateway be reached from anywhere, each service only from its callers', () => {
      const callers: Record<string, string[] | 'any'> = {};
      for (const policy of of(objects, 'NetworkPolicy')) {
        const target = policy.spec.podSelector.matchLabels?.['app.kubernetes.io/name'];
        if (!target) {
          expect(policy.spec.ingress).toBeUndefined(); // the default deny
          continue;
        }
        const httpRule = policy.spec.ingress[0];
        type From = {
          podSelector?: { matchLabels: Record<string, string> };
          namespaceSelector?: { matchLabels: Record<string, string> };
        };
        callers[target] = httpRule.from
          ? httpRule.from.map((f: From) =>
              f.podSelector
                ? f.podSelector.matchLabels['app.kubernetes.io/name']
                : `namespace ${f.namespaceSelector?.matchLabels['kubernetes.io/metadata.name']}`,
            )
          : 'any';
      }
      // The Gateway API variant's data plane reaches the services it routes to.
      const engine = overlay === 'prod-gateway-api' ? ['namespace envoy-gateway-system'] : [];
      expect(callers).toEqual({
        // Never "any": only the ingress controller reaches the gateway (it trusts that one hop).
        gateway: ['namespace ingress-nginx'],
        // did-service reads auth-service's JWKS on its public port.
        'auth-service': ['gateway', 'did-service', ...engine],
        'did-service': ['gateway', ...engine],
        'token-rpc': ['gateway', ...engine],
        'block-rpc': ['gateway', ...engine],
      });
      expect(
        of(objects, 'Ingress').map((i) => i.spec.rules[0].http.paths[0].backend.service.name),
      ).toEqual(overlay === 'prod-gateway-api' ? [] : ['gateway']);
    });

    it('admits to each internal port only its one calling service; the signer only to did-service', () => {
      const internalCallers: Record<string, string[]> = {};
      const ports: Record<string, number[]> = {};
      for (const service of of(objects, 'Service')) {
        const internal = service.spec.ports.find((p: { name: string }) => p.name === 'internal');
        if (internal) ports[service.metadata.name] = [internal.port];
      }
      for (const policy of of(objects, 'NetworkPolicy')) {
        const target = policy.spec.podSelector.matchLabels?.['app.kubernetes.io/name'];
        const port = ports[target]?.[0];
        if (!target || port === undefined) continue;
        const rules = policy.spec.ingress.filter((rule: { ports: { port: number }[] }) =>
          rule.ports.some((p) => p.port === port),
        );
        expect({ target, rules: rules.length }).toEqual({ target, rules: 1 });
        internalCallers[target] = rules[0].from.map(
          (f: { podSelector?: { matchLabels: Record<string, string> } }) =>
            f.podSelector?.matchLabels['app.kubernetes.io/name'] ?? 'not a pod',
        );
      }
      expect(ports).toEqual({
        'auth-service': [8181],
        'did-service': [8182],
        'token-rpc': [8183],
      });
      expect(internalCallers).toEqual({
        'auth-service': ['did-service'],
        'did-service': ['auth-service'],
        'token-rpc': ['did-service'],
      });
      // Each Deployment holds only the tokens of the calls it makes and answers.
      const tokens: Record<string, string[]> = {};
      for (const deployment of of(objects, 'Deployment')) {
        const [c] = deployment.spec.template.spec.containers;
        tokens[deployment.metadata.name] = (c.env ?? [])
          .map((e: { name: string }) => e.name)
          .filter((n: string) => n.startsWith('INTERNAL_TOKEN_'))
          .sort();
      }
      expect(tokens).toEqual({
        gateway: [],
        'auth-service': ['INTERNAL_TOKEN_AUTH_TO_DID', 'INTERNAL_TOKEN_DID_TO_AUTH'],
        'did-service': [
          'INTERNAL_TOKEN_AUTH_TO_DID',
          'INTERNAL_TOKEN_DID_TO_AUTH',
          'INTERNAL_TOKEN_DID_TO_TOKEN_RPC',
        ],
        'token-rpc': ['INTERNAL_TOKEN_DID_TO_TOKEN_RPC'],
        'block-rpc': [],
      });
    });

    it('trusts X-Forwarded-For only from the ingress hop at the gateway', () => {
      const map = objects.find(
        (o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('gateway-config'),
      ) as { data: Record<string, string> } | undefined;
      expect(map?.data.TRUST_PROXY).toBe('1');
    });

    it('scales every service on CPU only (memory does not fall with load: it would never scale down)', () => {
      const metrics = Object.fromEntries(
        of(objects, 'HorizontalPodAutoscaler').map((hpa) => [
          hpa.metadata.name,
          hpa.spec.metrics.map(
            (m: { type: string; resource?: { name: string } }) => `${m.type} ${m.resource?.name}`,
          ),
        ]),
      );
      expect(metrics).toEqual(Object.fromEntries(SERVICES.map((s) => [s.name, ['Resource cpu']])));
    });

    it('leaves the replica count to the HPA, waits in preStop, and keeps migration pods out of every selector', () => {
      for (const deployment of of(objects, 'Deployment')) {
        expect({ name: deployment.metadata.name, replicas: deployment.spec.replicas }).toEqual({
          name: deployment.metadata.name,
          replicas: undefined,
        });
        const [c] = deployment.spec.template.spec.containers;
        expect(c.lifecycle.preStop.exec.command[0]).toBe('node');
      }
      const selectors = [
        ...of(objects, 'Service').map((o) => o.spec.selector as Record<string, string>),
        ...of(objects, 'PodDisruptionBudget').map(
          (o) => o.spec.selector.matchLabels as Record<string, string>,
        ),
        ...of(objects, 'Deployment').map(
          (o) => o.spec.selector.matchLabels as Record<string, string>,
        ),
      ];
      for (const job of of(objects, 'Job')) {
        const podLabels = job.spec.template.metadata.labels as Record<string, string>;
        const selected = selectors.filter((sel) =>
          Object.entries(sel).every(([k, v]) => podLabels[k] === v),
        );
        expect({ job: job.metadata.name, selectedBy: selected }).toEqual({
          job: job.metadata.name,
          selectedBy: [],
        });
      }
    });
  });

  it('gives the migration Jobs new names when a release sets new image tags (kubectl apply -k)', async () => {
    // What an operator does for a release: new tags in the prod overlay, then apply it. The old
    // Jobs are immutable; applying the same names with another image would be refused.
    const copy = mkdtempSync(join(tmpdir(), 'itp-k8s-'));
    try {
      cpSync(join(root, 'deploy/k8s'), join(copy, 'k8s'), { recursive: true });
      const file = join(copy, 'k8s/overlays/prod/kustomization.yaml');
      const text = readFileSync(file, 'utf8');
      expect(text).toContain("newTag: '0.1.0'");
      writeFileSync(file, text.replaceAll("newTag: '0.1.0'", "newTag: '0.2.0'"));
      const jobs = (objects: K8sObject[]) =>
        of(objects, 'Job').map((j) => [
          j.metadata.name,
          j.spec.template.spec.containers[0].image.split(':')[1],
        ]);
      const before = jobs(await kustomize('deploy/k8s/overlays/prod'));
      const after = jobs(await kustomize('k8s/overlays/prod', copy));
      expect(before.length).toBe(SERVICES.filter((s) => s.migrates).length);
      for (const [name, tag] of before)
        expect(name).toBe(`${name?.split('-migrate')[0]}-migrate-${tag}`);
      expect(after).toEqual(before.map(([name]) => [name?.replace(/0\.1\.0$/, '0.2.0'), '0.2.0']));
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 30_000);

  it("names in the prod overlay's comment every key of itp-secrets the pods read", async () => {
    const objects = await kustomize('deploy/k8s/overlays/prod');
    const keys = new Set<string>();
    for (const workload of [...of(objects, 'Deployment'), ...of(objects, 'Job')]) {
      for (const env of workload.spec.template.spec.containers[0].env ?? []) {
        const ref = env.valueFrom?.secretKeyRef;
        // Per-service rotation keys are named once, as INTERNAL_API_ACCEPTED_TOKENS_<SERVICE>.
        if (ref) keys.add(ref.key.replace(/^(INTERNAL_API_ACCEPTED_TOKENS_).+$/, '$1<SERVICE>'));
      }
    }
    const comment = readFileSync(join(root, 'deploy/k8s/overlays/prod/kustomization.yaml'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('#'))
      .join(' ');
    expect([...keys].filter((key) => !comment.includes(key)).sort()).toEqual([]);
    expect(keys.size).toBeGreaterThanOrEqual(11);
    // The shared token was retired (ADR 0020): an overlay must not tell operators to set it.
    expect(comment).not.toMatch(/\bINTERNAL_API_TOKEN\b/);
  }, 30_000);

  it('writes every 0x… value quoted in the YAML it keeps (a hex integer to YAML parsers otherwise)', () => {
    const files = [
      'docker-compose.yml',
      ...[
        'base',
        'gateway-api',
        'overlays/dev',
        'overlays/prod',
        'overlays/prod-gateway-api',
      ].flatMap((dir) =>
        readdirSync(join(root, 'deploy/k8s', dir))
          .filter((f) => f.endsWith('.yaml'))
          .map((f) => `deploy/k8s/${dir}/${f}`),
      ),
    ];
    const unquoted: string[] = [];
    for (const file of files) {
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/(:|-)\s+0x[0-9a-fA-F]+\s*(#.*)?$/.test(line)) unquoted.push(`${file}:${i + 1}`);
        });
    }
    expect(unquoted).toEqual([]);
  });
});
