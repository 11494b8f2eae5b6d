/**
 * JSON in a model's reply: models wrap it in prose, fences or `<think>` blocks. {@link jsonValues}
 * yields, in order, every balanced `{…}` (or `[…]`) outside strings that parses: one scan and at most
 * one `JSON.parse` per opening bracket. Used by the judge, the query expander and the claim
 * decomposer.
 */
export function* jsonValues(output: string, open: '{' | '[' = '{'): Generator<unknown> {
  const close = open === '{' ? '}' : ']';
  const text = output.replace(/<think>[\s\S]*?<\/think>/gi, ' ');
  for (let start = text.indexOf(open); start !== -1; start = text.indexOf(open, start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const character = text[i];
      if (inString) {
        if (character === '\\') i++;
        else if (character === '"') inString = false;
      } else if (character === '"') inString = true;
      else if (character === open) depth++;
      else if (character === close && --depth === 0) {
        try {
          yield JSON.parse(text.slice(start, i + 1)) as unknown;
        } catch {
          // not JSON after all: try the next opening bracket
        }
        break;
      }
    }
  }
}
