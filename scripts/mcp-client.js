#!/usr/bin/env node
// A small MCP client on the SDK's own Client: starts `leakhunt mcp` over stdio, lists its tools, then
// runs the calls given as `tool '{json arguments}'` pairs in order, printing each call and a short answer.
// A planId of "$plan" is replaced by the last plan_capture's. Run `npm run build` first.
//   node scripts/mcp-client.js
//   node scripts/mcp-client.js plan_capture '{"pid":4242}' capture '{"planId":"$plan","confirm":true,"snapshots":3,"interval":"20s"}'
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const bin = fileURLToPath(new URL('../bin/leakhunt.js', import.meta.url));
const client = new Client({ name: 'leakhunt-mcp-client', version: '1' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp'], stderr: 'ignore' }));
const { tools } = await client.listTools();
console.log(`tools: ${tools.map((t) => t.name).join(', ')}`);
let plan;
const calls = process.argv.slice(2);
for (let i = 0; i < calls.length; i += 2) {
  const name = calls[i];
  const args = JSON.parse(calls[i + 1] ?? '{}');
  if (args.planId === '$plan') args.planId = plan;
  console.log(`\n> ${name} ${JSON.stringify(args)}`);
  const r = await client.callTool({ name, arguments: args }, undefined, {
    timeout: 30 * 60_000,
    resetTimeoutOnProgress: true,
    onprogress: (p) => console.log(`  progress ${p.progress}${p.total ? `/${p.total}` : ''}: ${p.message ?? ''}`),
  });
  if (name === 'plan_capture' && r.structuredContent) plan = r.structuredContent.planId;
  console.log(`${r.isError ? 'ERROR ' : ''}${r.content.map((c) => c.text).join('\n')}`);
  const s = r.structuredContent;
  if (s?.verdict) console.log(`  verdict: ${s.verdict}; findings: ${(s.findings ?? []).slice(0, 3).map((f) => f.className).join(', ') || 'none'}`);
}
await client.close();
