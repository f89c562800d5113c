// Process entry: run the CLI on this process's arguments (under huge pages, see relaunch.ts) and exit
// with its code.

import { relaunch, shouldRelaunch, watchParent } from './relaunch.js';

// A reader that stops early (`leakhunt … | head`) closes the pipe: that ends the output, quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

// The CLI's modules load only in the process that runs it, not in a parent that only relaunches.
watchParent(); // a relaunched child stops when its parent is gone, even by SIGKILL (relaunch.ts)
process.exitCode = shouldRelaunch() ? await relaunch() : await (await import('./main.js')).main(process.argv);
