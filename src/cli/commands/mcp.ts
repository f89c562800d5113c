// `leakhunt mcp`: the MCP server over stdio (src/cli/mcp/), for coding agents.

import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { ExitStatus, GlobalOptions } from '../global-options.js';

export function registerMcp(program: Command, _globals: () => GlobalOptions, _status: ExitStatus): void {
  program
    .command('mcp')
    .description('serve leakhunt\'s tools to a coding agent over the Model Context Protocol (stdio)')
    .addHelpText('after', `
Tools: list_node_processes, watch_memory, plan_capture, capture, profile, analyze_snapshot, diff_snapshots,
retainers. capture and profile need a plan from plan_capture and confirm: true.

Client configuration (Claude Code, Cursor, VS Code):
  { "mcpServers": { "leakhunt": { "command": "npx", "args": ["leakhunt", "mcp"] } } }`)
    .action(async () => {
      const { serveStdio } = await import('../mcp/server.js');
      const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string };
      await serveStdio(pkg.version);
    });
}
