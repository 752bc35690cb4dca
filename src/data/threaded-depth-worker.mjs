// The worker-thread entry of threaded-depth.ts: runs the read. The build copies this file into
// dist/ with the import below rewritten to threaded-depth-task.js, which plain Node loads; run
// from the source tree (tests, tsx), the task is TypeScript, so tsx is registered in this thread
// first (module hooks are per thread).
import { existsSync } from 'node:fs';

if (existsSync(new URL('./threaded-depth-task.ts', import.meta.url))) (await import('tsx/esm/api')).register();
await import('./threaded-depth-task.ts');
