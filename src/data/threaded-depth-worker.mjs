// The worker-thread entry of threaded-depth.ts: registers tsx so the TypeScript sources load in
// this thread as in the main one, then runs the read.
import { register } from 'tsx/esm/api';

register();
await import('./threaded-depth-task.ts');
