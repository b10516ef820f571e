/** Entry of the Benchmarks page. */
import { render } from 'preact';
import { App } from './app.js';
import './styles.css';

// Opened as /?token=…: the server has set its cookie; keep the token out of the address bar and history.
if (new URLSearchParams(location.search).has('token')) history.replaceState(null, '', location.pathname + location.hash);

render(<App />, document.getElementById('app') as HTMLElement);
