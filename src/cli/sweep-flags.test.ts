/** The flag types read from the option catalogue: each option a field under commander's key, present when it has a default. */
import { describe, expectTypeOf, it } from 'vitest';
import type { ArrivalFlags } from './arrival-flags.js';
import type { FlagsOf, PoolingFlags, SweepFlags } from './sweep-flags.js';

describe('flag types from the option catalogue', () => {
  it('keys each option as commander does, a string or a switch, present when it has a default', () => {
    expectTypeOf<FlagsOf<'sweep'>['outputTokens']>().toEqualTypeOf<string>();
    // Repeatable: commander collects every --url in order.
    expectTypeOf<FlagsOf<'sweep'>['url']>().toEqualTypeOf<string[]>();
    expectTypeOf<SweepFlags['route']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<FlagsOf<'sweep'>['forceLength']>().toEqualTypeOf<boolean>();
    expectTypeOf<FlagsOf<'sweep'>['serverMetrics']>().toEqualTypeOf<boolean>();
    expectTypeOf<SweepFlags['model']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<SweepFlags['idleTimeoutS']>().toEqualTypeOf<string>();
    // An option whose absence means something (refused where it does not apply) may be missing, though it has a default.
    expectTypeOf<PoolingFlags['batchSize']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ArrivalFlags['requestRate']>().toEqualTypeOf<string>();
    expectTypeOf<ArrivalFlags['metricPercentiles']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<FlagsOf<'sweep'>>().not.toHaveProperty('batchSize');
    expectTypeOf<SweepFlags>().toHaveProperty('save');
  });
});
