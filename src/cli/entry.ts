// Process entry: run the CLI on this process's arguments (under huge pages, see relaunch.ts) and exit
// with its code.

import { relaunch, shouldRelaunch } from './relaunch.js';

// The CLI's modules load only in the process that runs it, not in a parent that only relaunches.
process.exitCode = shouldRelaunch() ? await relaunch() : await (await import('./main.js')).main(process.argv);
