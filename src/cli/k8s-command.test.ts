/**
 * `goodput k8s manifest` and the Dockerfile it points at. No container runtime
 * or cluster exists here: the manifest is parsed and its fields checked, and the
 * Dockerfile read for what it promises (multi-stage, node:20-slim, non-root).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { cli } from '../test-support/cli-in-process.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('goodput k8s manifest', () => {
  it('prints the workers Deployment and the coordinator Job, both reading the database URL from the Secret', async () => {
    const r = await cli([
      'k8s',
      'manifest',
      '--workers',
      '3',
      '--database-url-secret',
      'goodput-db',
      '--image',
      'registry.example/goodput:0.1.0',
      '--namespace',
      'bench',
      '--api-key-secret',
      'vllm-key',
      '--',
      '--url',
      'http://vllm:8000',
      '--levels',
      '8,64,256',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS() as Obj);
    expect(docs.map((d) => `${d.apiVersion} ${d.kind} ${d.metadata.name}`)).toEqual(['apps/v1 Deployment goodput-worker', 'batch/v1 Job goodput-sweep']);
    const [deployment, job] = docs as [Obj, Obj];
    expect(deployment.metadata.namespace).toBe('bench');
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.spec.selector.matchLabels).toEqual(deployment.spec.template.metadata.labels);
    const worker = deployment.spec.template.spec.containers[0];
    expect(worker.image).toBe('registry.example/goodput:0.1.0');
    expect(worker.args).toEqual(['worker', '--name', '$(POD_NAME)']);
    expect(worker.env).toContainEqual({ name: 'GOODPUT_DATABASE_URL', valueFrom: { secretKeyRef: { name: 'goodput-db', key: 'url' } } });
    expect(worker.env).toContainEqual({ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } });
    // The workers' secret that signs jobs and records comes from its own Secret too.
    expect(worker.env).toContainEqual({ name: 'GOODPUT_WORKER_SECRET', valueFrom: { secretKeyRef: { name: 'goodput-worker-secret', key: 'secret' } } });
    // The server's key reaches every pod from its own Secret, never through the database.
    expect(worker.env).toContainEqual({ name: 'GOODPUT_API_KEY', valueFrom: { secretKeyRef: { name: 'vllm-key', key: 'key' } } });
    expect(worker.resources.requests.cpu).toBe('2');
    const sweep = job.spec.template.spec.containers[0];
    expect(sweep.args).toEqual(['sweep', '--url', 'http://vllm:8000', '--levels', '8,64,256', '--workers', '3', '--workers-wait', '300']);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    expect(job.spec.backoffLimit).toBe(0);
    expect(sweep.env).toContainEqual({ name: 'GOODPUT_API_KEY', valueFrom: { secretKeyRef: { name: 'vllm-key', key: 'key' } } });
    for (const c of [worker, sweep]) {
      expect(c.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
      expect(c.volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
    }
  });

  it.each([
    [['--workers', '0', '--database-url-secret', 'db', '--', '--url', 'http://x'], /--workers/],
    [['--workers', '2', '--database-url-secret', 'Bad_Name', '--', '--url', 'http://x'], /--database-url-secret: "Bad_Name" is not a Kubernetes name/],
    [['--workers', '2', '--database-url-secret', 'db', '--worker-cpu', 'lots', '--', '--url', 'http://x'], /--worker-cpu/],
    [['--workers', '2', '--database-url-secret', 'db'], /give the coordinator's target after --/],
    [
      ['--workers', '2', '--database-url-secret', 'db', '--image', 'Bad Image;rm', '--', '--url', 'http://x'],
      /--image: "Bad Image;rm" is not an image reference/,
    ],
    [
      ['--workers', '2', '--database-url-secret', 'db', '--', '--url', 'http://x', '--api-key', 'sk-1'],
      /--api-key after -- would be written into the manifest in plain text; give the server's key as a Secret with --api-key-secret/,
    ],
    [
      ['--workers', '2', '--database-url-secret', 'db', '--', '--url', 'http://x', '--database-url=postgres://u:pw@db/x'],
      /--database-url after -- .*--database-url-secret/,
    ],
  ])('refuses %j with exit 2, naming the flag, printing no manifest', async (args, message) => {
    const r = await cli(['k8s', 'manifest', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('a literal $( in the sweep arguments is escaped as $$(: Kubernetes puts no variable (a Secret) in its place', async () => {
    const r = await cli([
      'k8s',
      'manifest',
      '--workers',
      '1',
      '--database-url-secret',
      'db',
      '--',
      '--url',
      'http://x/$(GOODPUT_DATABASE_URL)',
      '--label',
      'a$(B)',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const job = parseAllDocuments(r.stdout).map((d) => d.toJS() as Obj)[1] as Obj;
    expect(job.spec.template.spec.containers[0].args.slice(1, 5)).toEqual(['--url', 'http://x/$$(GOODPUT_DATABASE_URL)', '--label', 'a$$(B)']);
  });

  it('the Dockerfile is multi-stage on node:20-slim and runs as the unprivileged node user', () => {
    const text = readFileSync(fileURLToPath(new URL('../../Dockerfile', import.meta.url)), 'utf8');
    expect(text.match(/^FROM node:20-slim/gm)).toHaveLength(2);
    expect(text).toMatch(/^FROM node:20-slim AS build$/m);
    expect(text).toMatch(/^COPY --from=build /m);
    expect(text).toMatch(/^RUN npm ci /m);
    expect(text).toMatch(/^USER node$/m);
    expect(text).toMatch(/^ENTRYPOINT \["node", "\/app\/bin\/goodput\.js"\]$/m);
  });
});
