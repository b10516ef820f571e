/**
 * web/: the Benchmarks page. Its pure view module (charts, table, cards,
 * compare) is this folder's door for other areas; the browser app in app/ is
 * built by Vite into dist/web-app and served by `goodput serve`. This door
 * names what other areas use (the app imports view/index.js itself).
 */
export { type Direction, type FigureDef, type FigureKey, FIGURES, type MetricKey, METRICS } from './view/metrics.js';
export { num, signedPct } from './view/format.js';
export { TABLE_HEADERS, tableCaption, tableRows } from './view/table-model.js';
export { cardViews } from './view/cards-model.js';
export { type ChartLevel, type ChartSeries } from './view/chart-lines.js';
export { type ChartDocument, type ChartSpec, perRequestChart, throughputChart, toolTtftChart, toolValidChart, ttftChart } from './view/charts.js';
export { barChart, type BarChartInput, barSubtitle } from './view/bars.js';
export { SHARE_WIDTH, type ShareCardInput, shareCardSvg } from './view/share-card.js';
export {
  COMPARE_MAX_RUNS,
  COMPARE_MIN_RUNS,
  compareHeader,
  type CompareRow,
  type CompareRun,
  compareRunOf,
  compareRuns,
  type Comparison,
  sideTables,
} from './view/compare-model.js';
export { qualityVerdictPhrase } from './view/compare-quality.js';
export { repeatSetProblem } from './view/repeat-sets.js';
export { historyPeak, historyPeakRate, historyWorkload } from './view/history-model.js';
export { undrawnReason } from './view/identity.js';
export { scheduleRows } from './view/schedule-model.js';
export { FLEET_CAPTION, FLEET_HEADERS, fleetRows } from './view/fleet.js';
export { ADAPTER_CAPTION, ADAPTER_HEADERS, adapterRows } from './view/adapters.js';
export {
  type CapacityAnswer,
  capacityAt,
  defaultTarget,
  gpuCount,
  type ParetoModel,
  paretoModel,
  paretoOf,
  type ParetoPoint,
  type ParetoSeries,
} from './view/pareto.js';
export { paretoLegend, renderPareto } from './view/pareto-chart.js';
export { capacityMarkup, esc, figureMarkup, html, paretoFigure, Raw, scrollFrame } from './view/markup.js';
export { reportHtml, reportMarkdown } from './view/report.js';
export { agentJobRows, agentLevelRows } from './view/agents-model.js';
export { poolingCharts } from './view/pooling-view.js';
