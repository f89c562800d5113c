// Sizes as a person reads them: binary units spelled out (KiB, MiB), as every output of leakhunt prints
// them. A leaf module every layer may use, like errors.ts.

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatBytes(bytes: number): string {
  const sign = bytes < 0 ? '-' : '';
  let v = Math.abs(bytes);
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  const digits = u === 0 ? 0 : v < 10 ? 2 : v < 100 ? 1 : 0;
  return `${sign}${v.toFixed(digits)} ${UNITS[u]}`;
}

/** `12.3 KiB` / `4.5 MiB` / `−2.0 KiB`: sizes in a diagnosis's evidence, one decimal, never bytes. */
export function formatKib(bytes: number): string {
  const abs = Math.abs(bytes);
  const text = abs >= 1024 * 1024 ? `${(abs / 1024 / 1024).toFixed(1)} MiB` : `${(abs / 1024).toFixed(1)} KiB`;
  return bytes < 0 ? `−${text}` : text;
}

/** `+1.5 MiB` / `-20 B`: a delta with its sign always shown. */
export function formatBytesDelta(bytes: number): string {
  return bytes > 0 ? `+${formatBytes(bytes)}` : bytes === 0 ? '0 B' : formatBytes(bytes);
}
