/**
 * `goodput k8s manifest`: the Kubernetes objects for a distributed sweep — a
 * Deployment of N `goodput worker` pods and the coordinator's Job running
 * `goodput sweep … --workers N` — both reading the database URL from a Secret,
 * both from the image the repository's Dockerfile builds. Printed as YAML to
 * apply or edit; nothing is sent to a cluster.
 */
import type { Command } from 'commander';
import { stringify } from 'yaml';
import { badFlag, parseNumber } from './parse-flags.js';

export interface ManifestOptions {
  workers: number;
  /** Secret holding the database URL… */
  secret: string;
  /** …under this key. */
  secretKey: string;
  image: string;
  namespace: string;
  /** CPU each worker asks for (a Kubernetes quantity). */
  workerCpu: string;
  /** Secret holding the inference server's API key (key `key`), given to every pod as GOODPUT_API_KEY; null when the server needs none. */
  apiKeySecret: string | null;
  /** The coordinator's `goodput sweep` arguments (the target, the levels…). */
  sweepArgs: readonly string[];
  /** Secret holding the workers' secret (key `secret`), given to every pod as GOODPUT_WORKER_SECRET. */
  workerSecret: string;
}

/** An image reference: [host[:port]/]path[:tag][@sha256:digest], path components lowercase. */
const IMAGE_REF =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d{1,5})?\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;

/** Sweep arguments that would put a secret in the manifest's plain text, and where it belongs instead. */
const SECRET_ARGS: ReadonlyArray<[string, string]> = [
  ['--api-key', "give the server's key as a Secret with --api-key-secret"],
  ['--database-url', 'the database URL comes from the Secret named by --database-url-secret'],
];

/** Kubernetes expands $(VAR) in args: a literal one is written $$( so no variable (a Secret's value) is put in its place. */
const escapeArg = (a: string) => a.replaceAll('$(', '$$$$(');

/** A Kubernetes name: lowercase letters, digits and '-', starting and ending alphanumeric, at most 63. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

const labels = { 'app.kubernetes.io/name': 'goodput' };

/** Runs as the image's `node` user, with nothing it does not need. */
const securityContext = {
  runAsNonRoot: true,
  runAsUser: 1000,
  runAsGroup: 1000,
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
};

function container(o: ManifestOptions, name: string, args: string[], extraEnv: object[] = []) {
  // Each pod reads the server's key from the Secret: the coordinator never hands it to workers through the database.
  const apiKey = o.apiKeySecret === null ? [] : [{ name: 'GOODPUT_API_KEY', valueFrom: { secretKeyRef: { name: o.apiKeySecret, key: 'key' } } }];
  // The workers' secret signs every job and record: it reaches the pods from a Secret, never through the database.
  const workerSecret = { name: 'GOODPUT_WORKER_SECRET', valueFrom: { secretKeyRef: { name: o.workerSecret, key: 'secret' } } };
  return {
    name,
    image: o.image,
    args,
    env: [{ name: 'GOODPUT_DATABASE_URL', valueFrom: { secretKeyRef: { name: o.secret, key: o.secretKey } } }, workerSecret, ...apiKey, ...extraEnv],
    securityContext,
    volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
  };
}

/** The manifest's objects, in apply order: the workers first, so they are live when the sweep waits for them. */
export function k8sObjects(o: ManifestOptions): object[] {
  const tmp = [{ name: 'tmp', emptyDir: {} }];
  const workers = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'goodput-worker', namespace: o.namespace, labels: { ...labels, 'app.kubernetes.io/component': 'worker' } },
    spec: {
      replicas: o.workers,
      selector: { matchLabels: { ...labels, 'app.kubernetes.io/component': 'worker' } },
      template: {
        metadata: { labels: { ...labels, 'app.kubernetes.io/component': 'worker' } },
        spec: {
          // One worker per node where the cluster allows: workers sharing a node share its cores.
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'kubernetes.io/hostname',
              whenUnsatisfiable: 'ScheduleAnyway',
              labelSelector: { matchLabels: { ...labels, 'app.kubernetes.io/component': 'worker' } },
            },
          ],
          terminationGracePeriodSeconds: 30,
          containers: [
            {
              ...container(o, 'worker', ['worker', '--name', '$(POD_NAME)'], [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }]),
              resources: { requests: { cpu: o.workerCpu, memory: '512Mi' }, limits: { memory: '2Gi' } },
            },
          ],
          volumes: tmp,
        },
      },
    },
  };
  const coordinator = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'goodput-sweep', namespace: o.namespace, labels: { ...labels, 'app.kubernetes.io/component': 'coordinator' } },
    spec: {
      backoffLimit: 0,
      template: {
        metadata: { labels: { ...labels, 'app.kubernetes.io/component': 'coordinator' } },
        spec: {
          restartPolicy: 'Never',
          containers: [
            {
              ...container(o, 'sweep', ['sweep', ...o.sweepArgs.map(escapeArg), '--workers', String(o.workers), '--workers-wait', '300']),
              resources: { requests: { cpu: '500m', memory: '512Mi' }, limits: { memory: '2Gi' } },
            },
          ],
          volumes: tmp,
        },
      },
    },
  };
  return [workers, coordinator];
}

export function registerK8sCommand(program: Command): void {
  const k8s = program.command('k8s').description('Kubernetes objects for distributed sweeps');
  k8s
    .command('manifest')
    .description("print a Deployment of N goodput workers and the coordinator's sweep Job (YAML); sweep arguments go after --")
    .requiredOption('--workers <n>', 'worker pods')
    .requiredOption('--database-url-secret <name>', 'the Secret holding the PostgreSQL URL')
    .option('--database-url-key <key>', 'the key of the URL in that Secret', 'url')
    .option('--image <ref>', "the image built from the repository's Dockerfile", 'goodput:0.1.0')
    .option('--namespace <name>', 'Kubernetes namespace', 'default')
    .option('--worker-cpu <quantity>', 'CPU each worker requests', '2')
    .option('--api-key-secret <name>', "a Secret whose key `key` is the inference server's API key, given to every pod as GOODPUT_API_KEY")
    .option(
      '--worker-secret-secret <name>',
      "the Secret whose key `secret` is the workers' secret (goodput worker --init), given to every pod as GOODPUT_WORKER_SECRET",
      'goodput-worker-secret',
    )
    .argument('[sweep-args...]', "the coordinator's goodput sweep arguments, e.g. -- --url http://vllm:8000 --levels 8,64,256")
    .action(
      (
        sweepArgs: string[],
        f: {
          workers: string;
          databaseUrlSecret: string;
          databaseUrlKey: string;
          image: string;
          namespace: string;
          workerCpu: string;
          apiKeySecret?: string;
          workerSecretSecret: string;
        },
      ) => {
        const workers = parseNumber('--workers', f.workers, { integer: true, min: 1, limit: 'workers' });
        for (const [flag, v] of [
          ['--database-url-secret', f.databaseUrlSecret],
          ['--namespace', f.namespace],
          ['--api-key-secret', f.apiKeySecret ?? 'none'],
          ['--worker-secret-secret', f.workerSecretSecret],
        ] as const) {
          if (!DNS_LABEL.test(v)) throw badFlag(flag, `${JSON.stringify(v)} is not a Kubernetes name (lowercase letters, digits and '-', at most 63)`);
        }
        if (!/^[A-Za-z0-9._-]+$/.test(f.databaseUrlKey)) throw badFlag('--database-url-key', `${JSON.stringify(f.databaseUrlKey)} is not a Secret key`);
        if (!/^(\d+(\.\d+)?|\d+m)$/.test(f.workerCpu)) throw badFlag('--worker-cpu', `${JSON.stringify(f.workerCpu)} is not a CPU quantity (e.g. 2 or 1500m)`);
        if (!IMAGE_REF.test(f.image) || f.image.length > 255)
          throw badFlag('--image', `${JSON.stringify(f.image)} is not an image reference (e.g. registry.example/goodput:0.1.0)`);
        for (const a of sweepArgs) {
          const hit = SECRET_ARGS.find(([flag]) => a === flag || a.startsWith(`${flag}=`));
          if (hit) throw badFlag('sweep arguments', `${hit[0]} after -- would be written into the manifest in plain text; ${hit[1]}`);
        }
        if (!sweepArgs.includes('--url'))
          throw badFlag('sweep arguments', "give the coordinator's target after --, e.g. -- --url http://vllm:8000 --levels 8,64,256");
        const objects = k8sObjects({
          workers,
          secret: f.databaseUrlSecret,
          secretKey: f.databaseUrlKey,
          image: f.image,
          namespace: f.namespace,
          workerCpu: f.workerCpu,
          apiKeySecret: f.apiKeySecret ?? null,
          sweepArgs,
          workerSecret: f.workerSecretSecret,
        });
        process.stdout.write(objects.map((o) => stringify(o)).join('---\n'));
      },
    );
}
