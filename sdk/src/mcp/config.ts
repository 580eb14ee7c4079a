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
      problems.push(`MIND_URL is not an http(s) URL: ${JSON.stringify(base)}; e.g. MIND_URL=http://127.0.0.1:3000`);
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
