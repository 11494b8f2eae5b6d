import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  type AddressRange,
  checkHost,
  classifyAddress,
  type HostResolver,
  pinnedLookup,
  type ResolvedAddress,
} from './address-guard.js';

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

/** A resolver answering from a table, recording every name it is asked for. */
function tableResolver(table: Record<string, ResolvedAddress[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const answer = table[hostname];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answer;
  };
  return Object.assign(resolve, { asked });
}

describe('classifyAddress', () => {
  const cases: [string, AddressRange][] = [
    ['8.8.8.8', 'public'],
    ['93.184.215.14', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['100.128.0.1', 'public'],
    ['169.254.169.254', 'link-local'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.20.0.1', 'public'],
    ['192.88.99.1', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['2606:4700::1111', 'public'],
    ['2a00:1450:4001:81c::200e', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['::7f00:1', 'reserved'],
    ['::8.8.8.8', 'reserved'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['64:ff9b::808:808', 'public'],
    ['64:ff9b:1::1', 'private'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:c0a8:101::', 'private'],
    ['2002:808:808::1', 'public'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['100::1', 'reserved'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['4000::1', 'reserved'],
    ['1::1', 'reserved'],
  ];
  it.each(cases)('%s is %s', (address, range) => {
    expect(classifyAddress(address)).toBe(range);
  });

  it('returns null for names and malformed addresses', () => {
    for (const text of ['example.com', '127.1', '0177.0.0.1', '2130706433', '1.2.3.4.5', '::g', '', '[::1']) {
      expect(classifyAddress(text)).toBeNull();
    }
  });
});

describe('checkHost on hosts as the URL parser gives them', () => {
  const refusedUrls = [
    'http://127.0.0.1:8080/',
    'http://127.0.0.1:22/',
    'http://127.0.0.1:1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://[::1]:3000/',
    'http://0.0.0.0/',
    'http://0/',
    'http://[::]/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://0x7f000001/',
    'http://127.1/',
    'http://017700000001/',
    'http://%31%32%37.0.0.1/',
    'http://127.0.0.1./',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2002:7f00:1::]/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://10.0.0.5/',
    'http://192.168.0.1/',
    'http://172.16.0.1/',
    'http://100.64.0.1/',
    'http://255.255.255.255/',
    'http://224.0.0.1/',
    'http://localhost/',
    'http://localhost:22/',
    'http://LOCALHOST./',
    'http://api.localhost/',
  ];
  it.each(refusedUrls)('refuses %s without asking a resolver', async (url) => {
    const resolver = tableResolver({});
    const check = await checkHost(new URL(url).hostname, { resolve: resolver });
    expect(check.ok).toBe(false);
    expect(resolver.asked).toEqual([]);
  });

  it('accepts public literals and pins them', async () => {
    expect(await checkHost(new URL('https://93.184.215.14/hook').hostname)).toEqual({
      ok: true,
      addresses: [v4('93.184.215.14')],
    });
    expect(await checkHost(new URL('https://[2606:4700::1111]/hook').hostname)).toEqual({
      ok: true,
      addresses: [v6('2606:4700::1111')],
    });
  });

  it('resolves names and refuses one with any non-public address', async () => {
    const resolve = tableResolver({
      'hooks.example.org': [v4('93.184.215.14'), v6('2606:2800:21f:cb07:6820:80da:af6b:8b2c')],
      'mixed.example.org': [v4('93.184.215.14'), v4('10.0.0.7')],
      'mixed6.example.org': [v6('2606:4700::1111'), v6('::1')],
      'metadata.example.org': [v4('169.254.169.254')],
      'garbage.example.org': [v4('not-an-address')],
      'empty.example.org': [],
    });
    expect(await checkHost('hooks.example.org', { resolve })).toEqual({
      ok: true,
      addresses: [v4('93.184.215.14'), v6('2606:2800:21f:cb07:6820:80da:af6b:8b2c')],
    });
    expect(await checkHost('mixed.example.org', { resolve })).toEqual({
      ok: false,
      reason: 'resolved',
      range: 'private',
    });
    expect(await checkHost('mixed6.example.org', { resolve })).toMatchObject({
      ok: false,
      range: 'loopback',
    });
    expect(await checkHost('metadata.example.org', { resolve })).toMatchObject({
      ok: false,
      range: 'link-local',
    });
    expect(await checkHost('garbage.example.org', { resolve })).toEqual({ ok: false, reason: 'unresolved' });
    expect(await checkHost('empty.example.org', { resolve })).toEqual({ ok: false, reason: 'unresolved' });
    expect(await checkHost('missing.example.org', { resolve })).toEqual({ ok: false, reason: 'unresolved' });
  });

  it('gives up on a resolver that does not answer in time', async () => {
    const started = Date.now();
    const check = await checkHost('slow.example.org', {
      resolve: () => new Promise(() => undefined),
      timeoutMs: 50,
    });
    expect(check).toEqual({ ok: false, reason: 'unresolved' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('with allowPrivate lets loopback, private and localhost through', async () => {
    const resolve = tableResolver({
      localhost: [v4('127.0.0.1'), v6('::1')],
      'nas.lan': [v4('192.168.1.5')],
    });
    expect(await checkHost('127.0.0.1', { allowPrivate: true })).toEqual({
      ok: true,
      addresses: [v4('127.0.0.1')],
    });
    expect(await checkHost('[::1]', { allowPrivate: true })).toEqual({ ok: true, addresses: [v6('::1')] });
    expect(await checkHost('localhost', { allowPrivate: true, resolve })).toEqual({
      ok: true,
      addresses: [v4('127.0.0.1'), v6('::1')],
    });
    expect(await checkHost('nas.lan', { allowPrivate: true, resolve })).toMatchObject({ ok: true });
  });
});

describe('pinnedLookup', () => {
  it('connects a named request to the approved address whatever the name', async () => {
    const server = createServer((_request, response) => response.end('pinned'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const body = await new Promise<string>((resolve, reject) => {
        get(
          {
            hostname: 'no-such-host.invalid',
            port,
            path: '/',
            agent: false,
            lookup: pinnedLookup([v4('127.0.0.1')]),
          },
          (response) => {
            let text = '';
            response.on('data', (chunk) => {
              text += chunk;
            });
            response.on('end', () => resolve(text));
          },
        ).on('error', reject);
      });
      expect(body).toBe('pinned');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('answers single and all-address queries, filtered by family', () => {
    const lookup = pinnedLookup([v4('93.184.215.14'), v6('2606:4700::1111')]);
    const answers: unknown[] = [];
    lookup('x', { family: 6 }, (error, address, family) => answers.push([error, address, family]));
    lookup('x', { all: true }, (error, address) => answers.push([error, address]));
    lookup('x', { family: 4, all: true }, (error, address) => answers.push([error, address]));
    expect(answers).toEqual([
      [null, '2606:4700::1111', 6],
      [null, [v4('93.184.215.14'), v6('2606:4700::1111')]],
      [null, [v4('93.184.215.14')]],
    ]);
    let code: string | undefined;
    pinnedLookup([v4('93.184.215.14')])('x', { family: 6 }, (error) => {
      code = error?.code;
    });
    expect(code).toBe('ENOTFOUND');
  });
});
