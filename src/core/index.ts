/** core/: pure measurement math. No I/O, no clock; tests feed it literals. */
export * from './record.js';
export * from './percentiles.js';
export * from './request-metrics.js';
export * from './steady-state.js';
export * from './cost.js';
export * from './client-bound.js';
export * from './level-summary.js';
export * from './cards.js';
export * from './result-schema.js';
export * from './random.js';
