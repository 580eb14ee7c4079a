import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';

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

/** The URL rule (docs/webhooks.md): `https://...`, or `http://localhost` / `http://127.0.0.1` (any port). */
export function webhookUrlProblem(url: URL): string | null {
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') {
    return LOCAL_HTTP_HOSTS.has(url.hostname) ? null : 'http:// is allowed only for localhost and 127.0.0.1; use https://';
  }
  return `must be an https:// URL (got ${url.protocol.replace(/:$/, '')})`;
}

/** What the target rules need to know about this server (from the configuration). */
export interface TargetSettings {
  /** HOST and PORT the server listens on (PORT 0: not known, no port rule). */
  host: string;
  port: number;
  /** MIND_PUBLIC_URL (or its default): the origin clients reach the service at. */
  publicUrl: string;
  /** MIND_WEBHOOK_ALLOW_LOCALHOST, resolved: whether `http://localhost` targets are allowed. */
  allowLocalhost: boolean;
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::']);

/** A host as compared here: lower case, no IPv6 brackets, no trailing dot (`Example.com.` = `example.com`). */
const comparableHost = (host: string) =>
  host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');

const isLoopbackName = (host: string) =>
  host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);

/** The port a URL connects to, the scheme's default when it names none. */
const portOf = (url: URL) => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : url.protocol === 'http:' ? 80 : 0);

/** Every address of this machine's network interfaces, as comparableHost gives them. */
function ownInterfaceAddresses(): Set<string> {
  const addresses = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) addresses.add(comparableHost(a.address));
  return addresses;
}

/**
 * The URL rules (docs/webhooks.md, docs/security.md), checked when a webhook is created or updated (a 400) and
 * again before every delivery (a refused attempt): `webhookUrlProblem`'s scheme rule, never the
 * service itself, and `http://localhost` only where the operator allows it.
 */
export class WebhookTargets {
  private readonly publicEndpoint: { host: string; port: number } | null;

  constructor(private readonly settings: TargetSettings) {
    let pub: URL | null = null;
    try {
      pub = new URL(settings.publicUrl);
    } catch {
      pub = null;
    }
    this.publicEndpoint = pub ? { host: comparableHost(pub.hostname), port: portOf(pub) } : null;
  }

  static fromConfig(config: { host: string; port: number; publicUrl: string; webhookAllowLocalhost: boolean }) {
    return new WebhookTargets({
      host: config.host,
      port: config.port,
      publicUrl: config.publicUrl,
      allowLocalhost: config.webhookAllowLocalhost,
    });
  }

  /** Why `url` cannot be a webhook target, or null when it can. */
  problem(url: URL): string | null {
    const scheme = webhookUrlProblem(url);
    if (scheme) return scheme;
    if (this.isService(url)) {
      return `points at this Mind Service itself (${url.protocol}//${url.host}); a webhook must not call the service that sends it`;
    }
    if (url.protocol === 'http:' && !this.settings.allowLocalhost) {
      return (
        'http://localhost and http://127.0.0.1 targets are for development and are off on this server ' +
        '(it does not listen on a loopback address only); its operator can allow them with MIND_WEBHOOK_ALLOW_LOCALHOST=1, ' +
        'otherwise use an https:// URL'
      );
    }
    return null;
  }

  /**
   * Whether `url` reaches this service: the origin of MIND_PUBLIC_URL, or HOST:PORT, or (listening on
   * loopback or on every interface) a loopback name or one of this machine's addresses with PORT.
   * Another name for the same machine or proxy is not recognised here; for https targets the
   * connect-time check (publicOnlyLookup) refuses the private and loopback addresses a name resolves to.
   */
  isService(url: URL): boolean {
    const host = comparableHost(url.hostname);
    const port = portOf(url);
    if (port === 0) return false;
    if (this.publicEndpoint && host === this.publicEndpoint.host && port === this.publicEndpoint.port) return true;
    if (this.settings.port === 0 || port !== this.settings.port) return false;
    const listening = comparableHost(this.settings.host);
    if (host === listening) return true;
    if (WILDCARD_HOSTS.has(listening) || isLoopbackName(listening)) {
      if (isLoopbackName(host) || WILDCARD_HOSTS.has(host)) return true; // 0.0.0.0 connects to this machine too
      if (WILDCARD_HOSTS.has(listening) && ownInterfaceAddresses().has(host)) return true;
    }
    return false;
  }
}
