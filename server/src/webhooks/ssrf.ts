import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Addresses a webhook must not reach unless the operator allows private targets: otherwise a mind
 * could make the service call its own network (admin ports, cloud metadata).
 */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, includes the metadata address 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes broadcast
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['fc00::', 7], // unique local, includes the EC2 metadata address fd00:ec2::254
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/** Whether an IP address is public. IPv4-mapped IPv6 (`::ffff:10.0.0.1`) is judged by its IPv4 address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class NotPublicAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_NOT_PUBLIC';
  constructor(host: string, address: string) {
    super(
      host === address
        ? `refused: ${address} is not a public address`
        : `refused: ${host} resolves to ${address}, which is not a public address`,
    );
  }
}

/** The host of a URL as net.connect sees it (`[::1]` -> `::1`). */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** An IP literal in the URL is never looked up, so it is checked before connecting. */
export function checkLiteralAddress(url: URL): void {
  const host = hostOf(url);
  if (isIP(host) && !isPublicAddress(host)) throw new NotPublicAddressError(host, host);
}

/**
 * A `lookup` for http(s).request: resolves every address of the host and refuses the connection if
 * any is not public. It runs when the socket connects, so a DNS answer that changes between
 * validation and delivery (DNS rebinding) is still caught.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) return callback(new NotPublicAddressError(hostname, refused.address), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`no address found for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
    callback(null, first.address, first.family);
  });
};

const LOCAL_HTTP_HOSTS = new Set(['localhost', '127.0.0.1']);

/** The URL rule of DESIGN section 6: `https://...`, or `http://localhost` / `http://127.0.0.1` (any port). */
export function webhookUrlProblem(url: URL): string | null {
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') {
    return LOCAL_HTTP_HOSTS.has(url.hostname) ? null : 'http:// is allowed only for localhost and 127.0.0.1; use https://';
  }
  return `must be an https:// URL (got ${url.protocol.replace(/:$/, '')})`;
}
