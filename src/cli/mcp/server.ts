// `leakhunt mcp`: a Model Context Protocol server over stdio. stdout carries the protocol only: whatever
// the engine says on the way (plans, warnings) goes to stderr, the server's log. When the client goes
// away (stdin closes) or the server gets SIGINT/SIGTERM, work in flight is stopped as Ctrl-C stops the
// CLI (inspector closed, partial snapshot removed) before the process ends.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { registerTools, settled } from './tools.js';

export function createServer(version: string): McpServer {
  const server = new McpServer({ name: 'leakhunt', version }, {
    instructions: 'Memory-leak diagnosis for Node.js processes. Start with list_node_processes or watch_memory (both read /proc only), '
      + 'then plan_capture {pid} (no signal) and capture {planId, confirm: true}. Snapshots on disk: analyze_snapshot, diff_snapshots, retainers.',
  });
  registerTools(server);
  return server;
}

/** Serves until stdin closes; resolves once the work in flight has stopped. */
export async function serveStdio(version: string): Promise<void> {
  const server = createServer(version);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    for (const name of ['SIGINT', 'SIGTERM'] as const) process.once(name, () => resolve());
  });
  await server.connect(transport);
  process.stderr.write('leakhunt: MCP server on stdio\n');
  await closed;
  // Closing the server cancels the requests in flight: their AbortSignals fire, and the tools detach.
  await server.close();
  await settled();
}
