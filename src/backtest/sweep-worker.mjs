// The sweep's worker-thread entry (piscina loads it), then exports the task. The build copies this
// file into dist/ with the import below rewritten to sweep-task.js, which plain Node loads; run from
// the source tree (tests, tsx), the task is TypeScript, so tsx is registered in this thread first
// (module hooks are per thread). A .ts strategy gets tsx from load-strategy.ts either way.
import { existsSync } from 'node:fs';

if (existsSync(new URL('./sweep-task.ts', import.meta.url))) (await import('tsx/esm/api')).register();
const { sweepTask } = await import('./sweep-task.ts');

export default sweepTask;
