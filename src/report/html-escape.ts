// HTML escaping for the HTML report: every text the report writes goes through here, attribute values
// included, so a class or edge name from the heap can never become markup.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** A tag with escaped attributes and already-built inner HTML (the caller escapes text it puts inside). */
export function element(tag: string, attrs: Readonly<Record<string, string | number | undefined>>, inner = ''): string {
  const shown = Object.entries(attrs).filter(([, v]) => v !== undefined).map(([k, v]) => ` ${k}="${escapeHtml(v!)}"`).join('');
  return `<${tag}${shown}>${inner}</${tag}>`;
}
