/**
 * A real OpenID Connect provider for the single sign-on tests: oidc-provider on a port of 127.0.0.1, with one
 * confidential client and its development login pages (any login name signs in as that account). Each account's
 * claims come from `accounts`: the login name maps to an email and whether it is verified.
 */
import type { Server } from 'node:http';
import { once } from 'node:events';
import Provider from 'oidc-provider';

/** The client the app signs in through. */
export const OIDC_CLIENT = { id: 'hc-monitor', secret: 'a-client-secret-for-tests' };

/** What the provider says of an account. */
export interface TestAccount {
  email: string;
  email_verified: boolean;
}

/** A running provider. */
export interface TestProvider {
  /** `http://127.0.0.1:<port>`. */
  issuer: string;
  close(): Promise<void>;
}

/**
 * Starts the provider on `port`.
 * @param redirectUri - The app's callback, the client's only redirect URI.
 * @param accounts - Claims by login name; a name not listed gets `<name>@example.org`, verified.
 */
export async function startOidcProvider(port: number, redirectUri: string, accounts: Record<string, TestAccount> = {}): Promise<TestProvider> {
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [{ client_id: OIDC_CLIENT.id, client_secret: OIDC_CLIENT.secret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    cookies: { keys: ['oidc-provider-test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, ...(accounts[sub] ?? { email: `${sub}@example.org`, email_verified: true }) }),
    }),
  });
  const server: Server = provider.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return {
    issuer,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
