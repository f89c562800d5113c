// Process entry: run the CLI on this process's arguments (under huge pages, see relaunch.ts) and exit
// with its code.

import { main } from './main.js';
import { relaunch, shouldRelaunch } from './relaunch.js';

process.exitCode = shouldRelaunch() ? await relaunch() : await main(process.argv);
