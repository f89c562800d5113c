// The inspector's small HTTP side: `/json/version` (is this port an inspector at all?) and `/json/list`
// (the websocket URL of the target). Plain node:http with a short timeout; the Host header is always
// an IP or `localhost`, which is what Node's DNS-rebinding check accepts.

import { request } from 'node:http';
import { isIP } from 'node:net';

export interface InspectorTarget {
  readonly id: string;
  readonly type: string;
  readonly title: string;
  readonly webSocketDebuggerUrl: string;
}

export function formatHostPort(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

export function getJson(host: string, port: number, path: string, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request({
      host,
      port,
      path,
      method: 'GET',
      timeout: timeoutMs,
      headers: { host: isIP(host) ? formatHostPort(host, port) : `localhost:${port}` },
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${formatHostPort(host, port)} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        if (body.length > 1 << 20) req.destroy(new Error('answer too large for an inspector'));
      });
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode} from ${formatHostPort(host, port)}${path}`));
        try {
          resolve(JSON.parse(body));
        } catch {
          reject(new Error(`${formatHostPort(host, port)}${path} did not answer JSON`));
        }
      });
    });
    req.end();
  });
}

/** True when host:port answers `/json/version` like a V8 inspector. */
export async function isInspector(host: string, port: number, timeoutMs: number): Promise<boolean> {
  try {
    const v = (await getJson(host, port, '/json/version', timeoutMs)) as Record<string, unknown> | null;
    return v !== null && typeof v === 'object' && typeof v['Protocol-Version'] === 'string';
  } catch {
    return false;
  }
}

/** The first Node target listed by the inspector at host:port. */
export async function listTarget(host: string, port: number, timeoutMs: number): Promise<InspectorTarget> {
  const list = await getJson(host, port, '/json/list', timeoutMs);
  const targets = Array.isArray(list) ? (list as InspectorTarget[]) : [];
  const target = targets.find((t) => typeof t?.webSocketDebuggerUrl === 'string');
  if (!target) throw new Error(`${formatHostPort(host, port)} lists no debuggable target (is another debugger attached?)`);
  return target;
}

/** The target's websocket URL, pointed at the address we reached (the inspector names its own bind address). */
export function rebaseWebSocketUrl(url: string, host: string, port: number): string {
  const u = new URL(url);
  u.host = formatHostPort(host, port);
  return u.toString();
}
