/**
 * Images sent by URL, identified without their address: a published copy
 * withholds where goodput's image server listened (an internal address), so
 * each level keeps what the run's image server offered it (file count, bytes,
 * a digest of their SHA-256s). The hash-checked contract redraws the same
 * files from its seed, level by level, and the two must agree: a level that
 * states other images, or none, is refused naming the field.
 */
import type { Contract } from '../contract/index.js';
import type { ImageFiles, SweepResult } from '../core/index.js';
import { imageFiles, imageFilesDigest } from '../runner/index.js';
import { type Refusal, refusal } from './refusal.js';

/** The files one level of this contract serves when its requests start at `offset` (warm-ups included). */
export function expectedImageFiles(c: Contract, offset: number, requests: number): ImageFiles | null {
  const images = (c.workload.images ?? []).find((i) => i !== null) ?? null;
  if (images === null || images.delivery !== 'url') return null;
  // A one-cell contract draws its media from the decoding seed (prepare-cells: cell 0).
  return imageFilesDigest(imageFiles(images, c.decoding.seed, offset, requests));
}

/** Refusals for a run of images by URL whose levels do not state the images its contract draws; `where` names the run. */
export function imageFilesRefusals(where: string, c: Contract, run: SweepResult): Refusal[] {
  const out: Refusal[] = [];
  let offset = 0;
  // Levels in the order they ran: each one's requests start where the last one's ended.
  const byConcurrency = new Map(run.levels.map((l) => [l.concurrency, l]));
  for (const concurrency of run.run.levelsOrder) {
    const level = byConcurrency.get(concurrency);
    if (level === undefined) continue;
    const sent = level.warmupRequests + level.requests;
    const expected = expectedImageFiles(c, offset, sent);
    offset += sent;
    const field = `${where} levels[c=${concurrency}].imageFiles`;
    if (expected === null) {
      if (level.imageFiles !== undefined) out.push(refusal('media-inputs', field, 'is stated, but the contract sends no images by URL'));
      continue;
    }
    const stated = level.imageFiles;
    if (stated === undefined) {
      out.push(
        refusal('media-inputs', field, 'is absent: a run of images by URL states which files its image server offered, or nothing shows they were sent'),
      );
      continue;
    }
    for (const key of ['files', 'bytes', 'sha256'] as const) {
      if (stated[key] !== expected[key])
        out.push(
          refusal(
            'media-inputs',
            `${field}.${key}`,
            `states ${stated[key]}, the images the contract draws from seed ${c.decoding.seed} give ${expected[key]}; the evidence was edited`,
          ),
        );
    }
  }
  return out;
}
