/**
 * A new authorization for a given scope, through the SDK's auth(): the stored access and refresh tokens
 * are dropped first, because a refresh can never widen a grant (RFC 6749 §6, "Refreshing an Access
 * Token": the requested scope MUST NOT include any scope not originally granted,
 * https://www.rfc-editor.org/rfc/rfc6749#section-6), so a step-up to a scope the server named in its
 * `403 insufficient_scope` challenge (the MCP spec's "Scope Challenge Handling") needs the
 * authorization page again. The Authorizer takes the user agent there and brings the code back.
 */
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Authorizer } from "./authorizer.ts";
import type { StoredOAuthProvider } from "./oauth-provider.ts";

export async function authorizeScope(
  provider: StoredOAuthProvider,
  authorizer: Authorizer,
  serverUrl: string,
  scope: string,
  resourceMetadataUrl: string | undefined,
): Promise<void> {
  await provider.invalidateCredentials("tokens");
  const options = {
    serverUrl,
    scope,
    ...(resourceMetadataUrl !== undefined ? { resourceMetadataUrl: new URL(resourceMetadataUrl) } : {}),
  };
  if ((await auth(provider, options)) === "AUTHORIZED") return;
  const code = await authorizer.waitForCode();
  if (code === undefined) throw new Error("the authorization did not complete");
  await auth(provider, { ...options, authorizationCode: code });
}
