// The largest V8 object id of a heap snapshot, read off its chunks as they stream by: the "born after"
// line that is all assertNoLeak needs of its first two snapshots (survivor-curves.ts), for about 1% of
// the cost of parsing them (a scan of the `nodes` array, nothing kept). Same rule as analysis/diff's
// maxHeapObjectId: embedder (native) and synthetic nodes carry ids of their own and are left out. The
// field layout comes from the header's `snapshot.meta`, as in the snapshot parser.

const NODES_KEY = '"nodes":[';
const HEADER_LIMIT = 1 << 20;

interface SnapshotHeader {
  readonly snapshot: { readonly meta: { readonly node_fields: readonly string[]; readonly node_types: readonly unknown[] } };
}

export class MaxNodeIdScanner {
  #header = '';
  #inNodes = false;
  #done = false;
  #fieldCount = 0;
  #idField = 0;
  #typeField = 0;
  #skipped = new Set<number>();
  #field = 0;
  #value = 0;
  #inNumber = false;
  #type = 0;
  #id = 0;
  #max = 0;

  /** The largest id among V8 heap objects; throws when the nodes array was not seen to its end. */
  get maxId(): number {
    if (!this.#done) throw new Error('heap snapshot ended before its nodes array did');
    return this.#max;
  }

  push(chunk: string): void {
    if (this.#done) return;
    if (!this.#inNodes) {
      this.#header += chunk;
      const at = this.#header.indexOf(NODES_KEY);
      if (at < 0) {
        if (this.#header.length > HEADER_LIMIT) throw new Error('heap snapshot header without a nodes array');
        return;
      }
      this.#readHeader(this.#header.slice(0, at));
      const rest = this.#header.slice(at + NODES_KEY.length);
      this.#header = '';
      this.#inNodes = true;
      this.#scan(rest);
      return;
    }
    this.#scan(chunk);
  }

  #readHeader(text: string): void {
    // `{"snapshot":{…},` up to the nodes key: close it and read the meta.
    const header = JSON.parse(`${text.trimEnd().replace(/,$/, '')}}`) as SnapshotHeader;
    const { node_fields: fields, node_types: types } = header.snapshot.meta;
    this.#fieldCount = fields.length;
    this.#idField = fields.indexOf('id');
    this.#typeField = fields.indexOf('type');
    const typeNames = types[this.#typeField];
    if (this.#idField < 0 || this.#typeField < 0 || !Array.isArray(typeNames)) throw new Error('heap snapshot meta without node id or type fields');
    typeNames.forEach((name, code) => {
      if (name === 'native' || name === 'synthetic') this.#skipped.add(code);
    });
  }

  #endNumber(): void {
    this.#inNumber = false;
    if (this.#field === this.#typeField) this.#type = this.#value;
    if (this.#field === this.#idField) this.#id = this.#value;
    this.#value = 0;
    if (++this.#field === this.#fieldCount) {
      if (!this.#skipped.has(this.#type) && this.#id > this.#max) this.#max = this.#id;
      this.#field = 0;
    }
  }

  #scan(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        this.#value = this.#value * 10 + (c - 48);
        this.#inNumber = true;
        continue;
      }
      if (this.#inNumber) this.#endNumber();
      if (c === 93 /* ] */) {
        this.#done = true;
        return;
      }
    }
  }
}
