// The console's entry: the style sheet (esbuild writes it beside the script) and the app.
import './styles.css';
import { render } from 'preact';
import { App } from './app.js';

render(<App />, document.getElementById('app')!);
