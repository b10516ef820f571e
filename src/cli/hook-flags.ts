/**
 * The server hooks' flags (`--reset-cache-between`, `--profile-level`), as
 * the option catalogue declares them: `goodput sweep` reads them into its
 * spec (a sweep is one cell, so `cells` is refused), `goodput run` into each
 * cell's spec. Every value is checked against the levels before anything runs.
 */
import type { Command } from 'commander';
import type { ResetCacheBetween } from '../core/index.js';
import type { SweepSpecInput } from '../runner/index.js';
import { addRunOptions, flagNumber } from './option-flags.js';
import { badFlag } from './parse-flags.js';
import type { FlagsOf } from './sweep-flags.js';

export type HookFlags = FlagsOf<'hooks'>;

/** Adds the hooks' flags to a command. */
export function addHookOptions(cmd: Command): Command {
  return addRunOptions(cmd, 'hooks');
}

/** The hooks asked for: how often the cache is emptied, and the level profiled (one of `levels`). */
export function hooksFromFlags(f: HookFlags, levels: readonly number[]): { between: ResetCacheBetween | null; profileLevel: number | null } {
  const profileLevel = f.profileLevel === undefined ? null : flagNumber('profileLevel', f.profileLevel);
  if (profileLevel !== null && !levels.includes(profileLevel))
    throw badFlag('--profile-level', `${profileLevel} is not one of the levels (${[...new Set(levels)].sort((a, b) => a - b).join(', ')})`);
  const between = (f.resetCacheBetween ?? null) as ResetCacheBetween | null;
  return { between, profileLevel };
}

/** A sweep's hooks: its one cell has no cells between. */
export function sweepHooksFromFlags(f: HookFlags, levels: readonly number[]): NonNullable<SweepSpecInput['serverHooks']> {
  const { between, profileLevel } = hooksFromFlags(f, levels);
  if (between === 'cells') throw badFlag('--reset-cache-between', "cells are a contract's (goodput run); a sweep is one cell: use levels");
  return { resetCache: between === 'levels' ? 'every-level' : null, profileLevel };
}

/** A contract cell's hooks: `cells` empties the cache before each cell's first level, `levels` before every level. */
export function cellHooks(h: ReturnType<typeof hooksFromFlags>): NonNullable<SweepSpecInput['serverHooks']> {
  return { resetCache: h.between === 'levels' ? 'every-level' : h.between === 'cells' ? 'first-level' : null, profileLevel: h.profileLevel };
}
