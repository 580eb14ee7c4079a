// The console's entry: the style sheet (esbuild writes it beside the script) and the app.
import './styles.css';
import { render } from 'preact';
import { App } from './app.js';

const root = document.getElementById('app')!;
root.textContent = ''; // the "Loading" line index.html shows until the script runs
render(<App />, root);
