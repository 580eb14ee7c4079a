// `mind-mcp`'s settings, from the environment an MCP client launches it with.

export interface BridgeConfig {
  /** The service's `/mcp` URL. */
  endpoint: URL;
  mindKey: string;
}

/** Raised for missing or unusable settings; the message says what to set. */
export class BridgeConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BridgeConfigError';
  }
}

/** What a Mind Key looks like, wherever it stands in a text (its `_` percent-encoded too). */
const MIND_KEY_PATTERN = /mk(?:_|%5[Ff])[A-Za-z0-9_-]+/g;

/**
 * A text as it may be shown to a human (stderr): every Mind Key-like word, the value of every URL query
 * parameter named `key`, and the key given (whatever its form) replaced by `[redacted]`.
 */
export function redactKeys(text: string, mindKey?: string): string {
  let redacted = mindKey && mindKey.length >= 8 ? text.split(mindKey).join('[redacted]') : text;
  redacted = redacted.replace(MIND_KEY_PATTERN, 'mk_[redacted]');
  return redacted.replace(/([?&](?:key|ke%79|%6[bB]ey)=)[^&#\s"]*/gi, '$1[redacted]');
}

/** Whether a URL carries a Mind Key: a query parameter `key` (any case, as decoded), or a Mind Key anywhere. */
function holdsKey(text: string, url: URL): boolean {
  if (new RegExp(MIND_KEY_PATTERN.source).test(text) || new RegExp(MIND_KEY_PATTERN.source).test(decodeSafely(text))) return true;
  return [...url.searchParams.keys()].some((name) => name.trim().toLowerCase() === 'key');
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `MIND_URL` (the service's address; its `/mcp` URL is taken as well) and `MIND_KEY` (the Mind Key). */
export function bridgeConfigFrom(env: NodeJS.ProcessEnv): BridgeConfig {
  const problems: string[] = [];
  const base = env.MIND_URL?.trim();
  let endpoint: URL | undefined;
  if (!base) {
    problems.push("MIND_URL is not set: the Mind Service's address, e.g. MIND_URL=http://127.0.0.1:3000");
  } else {
    endpoint = URL.canParse(base) ? new URL(base) : undefined;
    if (!endpoint || (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:')) {
      problems.push(`MIND_URL is not an http(s) URL: ${JSON.stringify(redactKeys(base))}; e.g. MIND_URL=http://127.0.0.1:3000`);
    } else if (holdsKey(base, endpoint)) {
      // A key in a URL ends up in logs, shell histories and proxies; the bridge sends it as a header only.
      problems.push(
        `MIND_URL must not hold the Mind Key (${JSON.stringify(redactKeys(base))}): remove it from the URL and set MIND_KEY=mk_... instead; mind-mcp sends it as Authorization: Bearer, never in the URL`,
      );
    } else if (endpoint.username || endpoint.password) {
      problems.push('MIND_URL must not hold credentials: the Mind Key goes in MIND_KEY');
    }
  }
  const mindKey = env.MIND_KEY?.trim();
  if (!mindKey) problems.push("MIND_KEY is not set: the mind's Mind Key (mk_...), sent as Authorization: Bearer");
  if (problems.length > 0 || !endpoint || !mindKey) throw new BridgeConfigError(problems.join('\n'));
  if (!/\/mcp\/?$/.test(endpoint.pathname)) endpoint.pathname = `${endpoint.pathname.replace(/\/+$/, '')}/mcp`;
  endpoint.hash = '';
  return { endpoint, mindKey };
}
