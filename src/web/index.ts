/**
 * web/: the Benchmarks page. Its pure view module (charts, table, cards,
 * compare) is this folder's door for other areas; the browser app in app/ is
 * built by Vite into dist/web-app and served by `goodput serve`.
 */
export * from './view/index.js';
