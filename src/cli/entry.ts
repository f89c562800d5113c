// Process entry: run the CLI on this process's arguments (under huge pages, see relaunch.ts) and exit
// with its code. Every other way this process ends closes what leakhunt opened first (exit-paths.ts).

import { closeAllOpen } from '../attach/open-resources.js';
import { installExitPaths } from './exit-paths.js';
import { relaunch, shouldRelaunch, watchParent } from './relaunch.js';

installExitPaths();

// The CLI's modules load only in the process that runs it, not in a parent that only relaunches.
watchParent(); // a relaunched child stops when its parent is gone, even by SIGKILL (relaunch.ts)
process.exitCode = shouldRelaunch() ? await relaunch() : await (await import('./main.js')).main(process.argv);
// A command closes what it opened itself; this catches anything an error path skipped.
await closeAllOpen();
