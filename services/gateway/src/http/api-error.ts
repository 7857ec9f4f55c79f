/** An error answered to the client in the spec's shape `{"errors":[{"title","detail"}]}`. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export const titles = {
  400: 'Parameter is malformed',
  401: 'Unauthorized Error',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  422: 'Unprocessable Entity',
  429: 'Too many requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service is temporarily unavailable',
  504: 'Gateway Timeout',
} as const;

export type ErrorStatus = keyof typeof titles;

export const apiError = (status: ErrorStatus, detail: string, headers?: Record<string, string>) => new ApiError(status, titles[status], detail, headers);

export const errorBody = (error: ApiError) => ({ errors: [{ title: error.title, detail: error.detail }] });
