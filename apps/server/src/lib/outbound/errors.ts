/** Why the guard stopped a request: a failed request to a user's URL is one of these or a network error. */
export class OutboundError extends Error {
  constructor(
    readonly kind: 'refused' | 'redirect' | 'timeout' | 'too-large',
    message: string,
    /** The 3xx status of a redirect (never followed). */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

/** The URL may not be requested: not a URL, not https, or an address that is not public unicast. */
export class OutboundRefused extends OutboundError {
  constructor(
    readonly reason: 'url' | 'scheme' | 'address',
    message: string,
  ) {
    super('refused', message);
    this.name = 'OutboundRefused';
  }
}
