// The worker thread's entry: the code is TypeScript, run through tsx as bin/dropqa.js runs the CLI
// (a worker does not inherit the main thread's loader).
import { register } from 'tsx/esm/api';

register();
await import('./host.ts');
