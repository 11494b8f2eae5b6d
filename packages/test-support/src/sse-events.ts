/** Test helpers for the SSE chat: a JSON value inspected field by field, and the events of a stream. */
export interface Json {
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected field by field
  [key: string]: any;
}

/** The `event:`/`data:` blocks of an SSE body, with their data parsed as JSON. */
export function parseSse(text: string): { event: string; data: Json }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      return { event, data: JSON.parse(data) as Json };
    });
}
