// Texts interned as small integers: one id per distinct text, in order of first use, so that ids
// compare where texts would (class names across a series, hop names and labels of one graph).

export class TextIds {
  readonly texts: string[] = [];
  readonly #ids = new Map<string, number>();

  idOf(text: string): number {
    let id = this.#ids.get(text);
    if (id === undefined) {
      id = this.texts.push(text) - 1;
      this.#ids.set(text, id);
    }
    return id;
  }
}
