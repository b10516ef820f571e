/**
 * web/view: the Benchmarks page's pure, reusable part — the metric registry,
 * the table, card and compare view-models, and the charts as functions of
 * data (pass a `document` to draw them in Node). No I/O, no globals.
 */
export * from './metrics.js';
export * from './format.js';
export * from './table-model.js';
export * from './cards-model.js';
export * from './chart-lines.js';
export * from './charts.js';
export * from './bars.js';
export * from './share-card.js';
export * from './compare-model.js';
export * from './what-differs.js';
export * from './compare-quality.js';
export * from './repeat-sets.js';
export * from './form-rules.js';
export * from './identity.js';
export * from './replay-charts.js';
export * from './clients.js';
export * from './energy.js';
export * from './adapters.js';
export * from './spec-decode.js';
export * from './in-flight.js';
export * from './server-view.js';
export * from './disagg.js';
export * from './fleet.js';
export * from './history-model.js';
export * from './schedule-model.js';
export * from './pareto.js';
export * from './pareto-chart.js';
export * from './markup.js';
export * from './report.js';
export * from './agents-model.js';
export * from './agent-charts.js';
export * from './tool-charts.js';
export * from './pooling-view.js';
export * from './decision.js';
