import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

export interface WalletApiClientOptions extends Omit<ClientOptions, 'baseUrl' | 'headers'> {
  /** The API root, without `/v1`: the document's paths carry it (e.g. `http://127.0.0.1:8080`). */
  baseUrl: string;
  /** The organization's API key, sent as the username of HTTP Basic authentication. */
  apiKey: string;
  /** Further headers for every request, such as `X-Env: testnet`. */
  headers?: Record<string, string>;
}

/** Every path and method of the API, with its parameters, body and answers typed from the OpenAPI document. */
export type WalletApiClient = Client<paths>;

/** `Basic base64(<key>:)`: the key is the username and the password is empty. */
export function basicAuthorization(apiKey: string): string {
  // btoa takes Latin-1 only: encode the key as UTF-8 bytes first, so any key is sent as the server decodes it.
  const bytes = new TextEncoder().encode(`${apiKey}:`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

export function createWalletApiClient({ baseUrl, apiKey, headers = {}, ...options }: WalletApiClientOptions): WalletApiClient {
  return createClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...headers, Authorization: basicAuthorization(apiKey) },
  });
}
