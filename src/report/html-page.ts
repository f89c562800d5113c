// The HTML report's page: one self-contained document (inline CSS and a few lines of inline script, no
// fonts, images or scripts from anywhere; a Content-Security-Policy that forbids fetching anything), the
// sections built by html-report.ts inside it.

import { escapeHtml } from './html-escape.js';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

const CSS = `
:root{color-scheme:light;--fg:#1d232b;--dim:#5d6875;--line:#d7dde4;--bad:#b3261e;--warn:#9a5b00;--good:#1e7b34;--hi:#fff4c2}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);margin:0;background:#f6f7f9}
main{max-width:1100px;margin:0 auto;padding:20px 24px 60px}h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:15px;margin:0 0 6px}.dim,.facts{color:var(--dim)}.facts span{margin-right:16px;white-space:nowrap}
.verdict{border-radius:8px;padding:12px 16px;margin:16px 0;background:#fff;border-left:6px solid var(--good)}
.verdict.leak,.verdict.external,.verdict.native{border-left-color:var(--bad)}.verdict.backlog,.verdict.suspect,.verdict.warm-up{border-left-color:var(--warn)}
.verdict strong{font-size:18px;letter-spacing:.04em}.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin:12px 0}
.kind{display:inline-block;font-size:12px;font-weight:600;border-radius:4px;padding:1px 6px;background:#eef1f4;margin-right:6px;text-transform:uppercase}
.fix{background:#eef7ef;border-radius:6px;padding:6px 10px;margin:8px 0}.rates span{margin-right:14px}
ul{margin:4px 0;padding-left:20px}code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}
details.chain{margin:8px 0}details.chain summary{cursor:pointer;color:var(--dim)}ol.hops{margin:6px 0;padding-left:28px}
li.hop{padding:3px 6px;border-radius:4px}li.hop.labelled{background:var(--hi)}.label{font-size:12px;font-weight:600;color:var(--warn);margin-left:6px}
.id{color:#3451b2}.type,.size{color:var(--dim);font-size:12px;margin-left:4px}.edge{color:var(--dim);font-size:12px;padding-left:14px}
.name{font-style:italic}.hint{font-size:12px;color:var(--dim);margin:4px 0 0 28px}table{border-collapse:collapse;width:100%;background:#fff;font-size:13px}th,td{padding:3px 8px;border-bottom:1px solid var(--line);text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}table.sortable th{cursor:pointer;user-select:none}th[data-dir=asc]::after{content:" ▲"}th[data-dir=desc]::after{content:" ▼"}
.scroll{max-height:480px;overflow:auto;border:1px solid var(--line)}.scroll thead th{position:sticky;top:0;background:#eef1f4}
figure.chart-box{margin:8px 0;background:#fff}svg.chart{width:100%;max-width:720px;height:auto;display:block}figcaption{font-size:12px;color:var(--dim)}
.grid{stroke:#e6e9ed}.tick,.axis,.mark-label{font-size:10px;fill:var(--dim)}.mark{stroke:#7a8896;stroke-dasharray:3 3}.band{fill:#f4a26133}
.line{fill:none;stroke-width:2}.dot{stroke:#fff;stroke-width:1}
.s0{stroke:#3451b2;fill:#3451b2;color:#3451b2}.s1{stroke:#c0392b;fill:#c0392b;color:#c0392b}.s2{stroke:#1e7b34;fill:#1e7b34;color:#1e7b34}.s3{stroke:#9a5b00;fill:#9a5b00;color:#9a5b00}
path.line{fill:none}.key{font-weight:600;margin-left:8px}.key::before{content:"■ "}
`;

/** Sorts a table.sortable on a click of a heading: numbers by data-v, text by locale; a second click reverses. */
const SCRIPT = `
for (const th of document.querySelectorAll('table.sortable th')) {
  th.addEventListener('click', () => {
    const table = th.closest('table'), body = table.tBodies[0], col = th.cellIndex, num = th.dataset.type === 'num';
    const dir = th.dataset.dir === 'desc' ? 'asc' : 'desc', sign = dir === 'asc' ? 1 : -1;
    for (const h of table.querySelectorAll('th')) delete h.dataset.dir;
    th.dataset.dir = dir;
    const key = (row) => num ? Number(row.cells[col].dataset.v) : row.cells[col].textContent;
    const rows = [...body.rows].sort((a, b) => sign * (num ? key(a) - key(b) : key(a).localeCompare(key(b))));
    body.append(...rows);
  });
}
`;

export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style></head>
<body><main>
${body}
</main><script>${SCRIPT}</script></body></html>
`;
}
