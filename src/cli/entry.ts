// Process entry: run the CLI on this process's arguments and exit with its code.

import { main } from './main.js';

const code = await main(process.argv);
process.exitCode = code;
