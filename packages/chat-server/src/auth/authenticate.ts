import type { AppRegistry } from '../apps.ts';
import type { AppConfig } from '../config.ts';
import { chatError } from '../errors.ts';
import type { TokenCache } from './token-cache.ts';
import { verifyToken, type VerifiedToken } from './tokens.ts';

export interface Credentials {
  apiKey: string | undefined;
  /** `jwt` (default) or `anonymous`. */
  authType: string | undefined;
  token: string | undefined;
}

export type Identity =
  | { kind: 'server'; app: AppConfig }
  | { kind: 'user'; app: AppConfig; userId: string }
  | { kind: 'anonymous'; app: AppConfig };

/** Resolves the app and verifies the token; shared by REST requests and the websocket handshake. */
export function authenticate(
  apps: AppRegistry,
  cache: TokenCache,
  credentials: Credentials,
  nowSeconds: number,
): Identity {
  if (!credentials.apiKey) throw chatError.accessKey('api_key is required');
  const app = apps.byKey(credentials.apiKey);
  if (!app) throw chatError.accessKey(`api_key not found: ${credentials.apiKey}`);
  if (credentials.authType === 'anonymous') return { kind: 'anonymous', app };
  if (credentials.authType !== undefined && credentials.authType !== 'jwt') {
    throw chatError.accessKey('stream-auth-type must be jwt or anonymous');
  }
  const token = credentials.token;
  if (!token || token === 'undefined') throw chatError.auth('Authorization header is missing');
  const scope = { appId: app.id, checked: !app.disableAuthChecks };
  let verified: VerifiedToken | undefined = cache.get(token, scope, nowSeconds);
  if (!verified) {
    verified = verifyToken(token, {
      secret: app.secret,
      allowDevTokens: app.disableAuthChecks,
      nowSeconds,
    });
    cache.set(token, scope, verified);
  }
  return verified.kind === 'server'
    ? { kind: 'server', app }
    : { kind: 'user', app, userId: verified.userId };
}
