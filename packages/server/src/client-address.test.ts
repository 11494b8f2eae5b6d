import { describe, expect, it } from 'vitest';
import { clientAddress, peerIsTrusted, proxyTrust } from './client-address.js';

const hops = (count: number, header: 'x-forwarded-for' | 'forwarded' = 'x-forwarded-for') =>
  proxyTrust({ hops: count, header });
const ranges = (addresses: string[], header: 'x-forwarded-for' | 'forwarded' = 'x-forwarded-for') =>
  proxyTrust({ addresses, header });

describe('clientAddress without a trusted proxy', () => {
  it('is the TCP peer whatever the forwarding headers say', () => {
    expect(clientAddress('203.0.113.9', '198.51.100.1', null)).toBe('203.0.113.9');
    expect(clientAddress('::ffff:203.0.113.9', undefined, null)).toBe('203.0.113.9');
    expect(clientAddress('2001:DB8::1', undefined, null)).toBe('2001:db8::1');
    expect(clientAddress(undefined, '198.51.100.1', null)).toBe('unknown');
  });
});

describe('clientAddress with a hop count', () => {
  it('takes the address the one proxy saw, not what the client wrote before it', () => {
    // The client sent "X-Forwarded-For: 1.2.3.4"; the proxy appended the client's real address.
    expect(clientAddress('10.0.0.2', '1.2.3.4, 198.51.100.7', hops(1))).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.2', '198.51.100.7', hops(1))).toBe('198.51.100.7');
  });

  it('walks back exactly n hops behind n proxies', () => {
    const header = '6.6.6.6, 198.51.100.7, 10.0.0.1';
    expect(clientAddress('10.0.0.2', header, hops(2))).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.2', header, hops(1))).toBe('10.0.0.1');
  });

  it('stops at the peer when the header is missing or shorter than the hop count', () => {
    expect(clientAddress('10.0.0.2', undefined, hops(1))).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', '', hops(1))).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', '198.51.100.7', hops(3))).toBe('198.51.100.7');
  });

  it('never returns a value that is not an IP address', () => {
    expect(clientAddress('10.0.0.2', 'evil<script>', hops(1))).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', '198.51.100.7, unknown', hops(2))).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', `${'1.1.1.1,'.repeat(10_000)}198.51.100.7`, hops(1))).toBe(
      '198.51.100.7',
    );
  });
});

describe('clientAddress with trusted addresses and ranges', () => {
  const trust = ranges(['10.0.0.0/8', '127.0.0.1/32', 'fd00::/8']);

  it('ignores the header when the peer is not a trusted proxy (a client talking directly)', () => {
    expect(clientAddress('203.0.113.9', '1.2.3.4', trust)).toBe('203.0.113.9');
    expect(peerIsTrusted('203.0.113.9', trust)).toBe(false);
    expect(peerIsTrusted('10.1.2.3', trust)).toBe(true);
    expect(peerIsTrusted('::ffff:127.0.0.1', trust)).toBe(true);
  });

  it('skips trusted hops from the right and stops at the first untrusted one', () => {
    // Client-written 1.2.3.4 and 10.9.9.9 sit left of the first untrusted hop and are never reached.
    expect(clientAddress('10.0.0.2', '10.9.9.9, 1.2.3.4, 198.51.100.7, 10.0.0.1', trust)).toBe(
      '198.51.100.7',
    );
    expect(clientAddress('fd00::2', '2001:db8::7', trust)).toBe('2001:db8::7');
  });

  it('a client cannot pose as a trusted proxy to reach further left', () => {
    // 198.51.100.7 is untrusted, so the private address it claims to forward for is not believed.
    expect(clientAddress('10.0.0.2', '10.5.5.5, 198.51.100.7', trust)).toBe('198.51.100.7');
  });

  it('falls back to the last trusted hop when every hop is a proxy or an entry is garbage', () => {
    expect(clientAddress('10.0.0.2', '10.0.0.3', trust)).toBe('10.0.0.3');
    expect(clientAddress('10.0.0.2', 'not-an-ip, 10.0.0.3', trust)).toBe('10.0.0.3');
  });
});

describe('clientAddress from RFC 7239 Forwarded', () => {
  it('reads the for= of each element, with ports, quotes and IPv6 brackets', () => {
    const header = 'for=1.2.3.4;proto=https, for="[2001:db8:cafe::17]:4711";by=10.0.0.1';
    expect(clientAddress('10.0.0.2', header, hops(1, 'forwarded'))).toBe('2001:db8:cafe::17');
    expect(clientAddress('10.0.0.2', 'for=192.0.2.60:8080;proto=http', hops(1, 'forwarded'))).toBe(
      '192.0.2.60',
    );
    expect(clientAddress('10.0.0.2', 'For="198.51.100.7"', hops(1, 'forwarded'))).toBe('198.51.100.7');
  });

  it('treats obfuscated and unknown nodes, and elements without for=, as the end of the walk', () => {
    expect(clientAddress('10.0.0.2', 'for=_hidden', hops(1, 'forwarded'))).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', 'for=unknown', hops(1, 'forwarded'))).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', 'proto=https', hops(1, 'forwarded'))).toBe('10.0.0.2');
  });

  it('does not split inside quotes (a forged element hidden in a quoted value stays one element)', () => {
    const header = 'for="198.51.100.7, for=1.2.3.4"';
    expect(clientAddress('10.0.0.2', header, hops(1, 'forwarded'))).toBe('10.0.0.2');
  });

  it('ignores X-Forwarded-For when the proxies write Forwarded (the caller passes only that header)', () => {
    expect(clientAddress('10.0.0.2', undefined, hops(1, 'forwarded'))).toBe('10.0.0.2');
  });
});

describe('clientAddress behind a serverless platform (a named proxy, no socket)', () => {
  it('with trusted hops, the address the platform forwarded; the platform name otherwise', () => {
    expect(clientAddress('vercel', '198.51.100.7', hops(1))).toBe('198.51.100.7');
    expect(clientAddress('vercel', '1.2.3.4, 198.51.100.7', hops(1))).toBe('198.51.100.7');
    expect(clientAddress('vercel', undefined, hops(1))).toBe('vercel');
    expect(clientAddress('vercel', '198.51.100.7', null)).toBe('vercel');
    expect(clientAddress('vercel', '198.51.100.7', ranges(['10.0.0.0/8']))).toBe('vercel');
  });
});
