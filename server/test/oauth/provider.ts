// An OAuth client provider for the official MCP clients' `auth()` (v1 and v2 share its shape): it keeps
// what the SDK saves in memory and hands the authorization URL to the test, which opens it in Chromium.

export interface SavedTokens {
  access_token: string;
  refresh_token?: string;
  scope?: string;
  expires_in?: number;
}

export class TestProvider {
  client?: { client_id: string };
  saved?: SavedTokens;
  verifier = '';
  /** The authorization URL the SDK asked to open, last first. */
  authorizationUrls: URL[] = [];

  constructor(
    readonly redirectUrl: string,
    readonly name: string,
  ) {}

  get clientMetadata() {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: { client_id: string }) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: SavedTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrls.unshift(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  /** The v2 client binds the callback to the authorization server it discovered. */
  discovery?: unknown;
  saveDiscoveryState(state: unknown) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  invalidateCredentials(scope: string) {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
  }
}
