import { describe, expect, it } from 'vitest';
import { MultipartError, multipartBoundary, parseMultipart, partText } from './multipart.js';

/** A body as the platform's FormData serializes it (what fetch and browsers send). */
async function serialize(form: FormData): Promise<{ body: Uint8Array; contentType: string }> {
  const request = new Request('http://upload.invalid/', { method: 'POST', body: form });
  return {
    body: new Uint8Array(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}

/** What `Request.formData()` reads from the same body: the reference this parser must agree with. */
async function platformEntries(body: Uint8Array, contentType: string) {
  const form = await new Request('http://upload.invalid/', {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: new Blob([new Uint8Array(body)]),
  }).formData();
  const entries: [string, FormDataEntryValue][] = [];
  form.forEach((value, name) => {
    entries.push([name, value]);
  });
  return Promise.all(
    entries.map(async ([name, value]) =>
      typeof value === 'string'
        ? { name, text: value }
        : { name, filename: value.name, type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) },
    ),
  );
}

const text = (value: string) => new TextEncoder().encode(value);

describe('parseMultipart', () => {
  it('reads what FormData sends exactly as Request.formData() does, hostile names included', async () => {
    const form = new FormData();
    form.set('collection', 'lalu-lintas');
    form.set('title', 'Undang-Undang "Lalu Lintas"\nNomor 22 — ñ 日本');
    const names = ['../../etc/passwd.md', 'a"b.md', 'line\nbreak\r.md', 'rtl\u202egpj.md', '', 'CON.md'];
    for (const [index, name] of names.entries()) {
      form.append(
        index === 0 ? 'file' : `file${index}`,
        new Blob([text(`# ${index}\r\n--not a boundary\r\n`)], { type: 'Text/Markdown' }),
        name,
      );
    }
    form.append('binary', new Blob([new Uint8Array([0, 13, 10, 45, 45, 255, 13, 10])]), 'x.bin');
    const { body, contentType } = await serialize(form);
    const boundary = multipartBoundary(contentType);
    expect(boundary).toBeDefined();

    const parts = parseMultipart(body, boundary!);
    const ours = parts.map((part) =>
      part.filename === undefined
        ? { name: part.name, text: partText(part) }
        : {
            name: part.name,
            filename: part.filename,
            type: part.contentType,
            bytes: new Uint8Array(part.data),
          },
    );
    expect(ours).toEqual(await platformEntries(body, contentType));
    expect(parts.find((part) => part.name === 'file1')?.filename).toBe('a"b.md');
    expect(parts.find((part) => part.name === 'file2')?.filename).toBe('line\nbreak\r.md');
  });

  it('returns views into the body, not copies', async () => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(100_000).fill(7)]), 'big.bin');
    const { body, contentType } = await serialize(form);
    const [part] = parseMultipart(body, multipartBoundary(contentType)!);
    expect(part!.data.buffer).toBe(body.buffer);
    expect(part!.data.length).toBe(100_000);
  });

  it('reads hand-written bodies: no headers, a quoted boundary, leading and trailing line breaks', () => {
    const body = text(
      '\r\n--b c\r\nContent-Disposition: form-data; name="collection"\r\n\r\nx\r\n' +
        '--b c\r\ncontent-disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n' +
        'hello\r\n--b c--\r\n\r\n',
    );
    expect(multipartBoundary('multipart/form-data; boundary="b c"')).toBe('b c');
    const parts = parseMultipart(body, 'b c');
    expect(parts.map((part) => [part.name, part.filename, part.contentType, partText(part)])).toEqual([
      ['collection', undefined, '', 'x'],
      ['file', 'a.txt', 'text/plain', 'hello'],
    ]);
  });

  it.each([
    ['no boundary at the start', 'garbage\r\n--b\r\n\r\n\r\n--b--'],
    ['an unclosed part', '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue'],
    ['headers without an end', '--b\r\nContent-Disposition: form-data; name="a"'],
    ['no Content-Disposition', '--b\r\nContent-Type: text/plain\r\n\r\nv\r\n--b--'],
    [
      'a disposition that is not form data',
      '--b\r\nContent-Disposition: attachment; name="a"\r\n\r\nv\r\n--b--',
    ],
    ['a malformed header', '--b\r\nnot a header\r\n\r\nv\r\n--b--'],
    [
      'bytes after the closing boundary',
      '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n--b--tail',
    ],
    ['no line break after a boundary', '--bX\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n--b--'],
  ])('refuses %s', (_label, body) => {
    expect(() => parseMultipart(text(body), 'b')).toThrow(MultipartError);
  });

  it('refuses more parts than allowed', () => {
    const part = '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n';
    expect(() => parseMultipart(text(`${part.repeat(5)}--b--`), 'b', 4)).toThrow(MultipartError);
    expect(parseMultipart(text(`${part.repeat(4)}--b--`), 'b', 4)).toHaveLength(4);
  });
});
