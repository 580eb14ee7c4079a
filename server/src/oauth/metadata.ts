import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/server';
import { resourceOf, SCOPES } from './authorize.js';

/** RFC 9728's document for /mcp; its URL is what a 401 of /mcp names in `WWW-Authenticate`. */
export const protectedResourceMetadataUrl = (publicUrl: string) => `${publicUrl}/.well-known/oauth-protected-resource/mcp`;

/**
 * The `WWW-Authenticate` of a 401 from /mcp (RFC 9728 section 5.1): where a client finds how to get a
 * token; a token that was sent and refused is `invalid_token` (RFC 6750), which makes OAuth clients refresh.
 */
export const mcpChallenge = (publicUrl: string, presented: boolean) =>
  `Bearer resource_metadata="${protectedResourceMetadataUrl(publicUrl)}"${presented ? ', error="invalid_token"' : ''}`;

/** RFC 9728: /mcp is the protected resource; this service is its own authorization server. */
export function protectedResourceMetadata(publicUrl: string): OAuthProtectedResourceMetadata {
  return {
    resource: resourceOf(publicUrl),
    authorization_servers: [publicUrl],
    scopes_supported: [SCOPES.read, SCOPES.full],
    bearer_methods_supported: ['header'],
    resource_name: 'Mind Service',
    resource_documentation: `${publicUrl}/docs/mcp`,
  };
}

/** RFC 8414: public clients with PKCE S256, dynamic registration and client metadata documents. */
export function authorizationServerMetadata(publicUrl: string): OAuthMetadata {
  return {
    issuer: publicUrl,
    authorization_endpoint: `${publicUrl}/oauth/authorize`,
    token_endpoint: `${publicUrl}/oauth/token`,
    registration_endpoint: `${publicUrl}/oauth/register`,
    scopes_supported: [SCOPES.read, SCOPES.full],
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    service_documentation: `${publicUrl}/docs/mcp`,
    client_id_metadata_document_supported: true,
  };
}
