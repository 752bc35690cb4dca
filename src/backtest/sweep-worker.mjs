// The sweep's worker-thread entry (piscina loads it): registers tsx so the TypeScript sources
// load in this thread as in the main one, then exports the task.
import { register } from 'tsx/esm/api';

register();
const { sweepTask } = await import('./sweep-task.ts');

export default sweepTask;
