// Every message the API sends, verbatim from the seed ("Messages by endpoint", "Errors") or from
// the document where it fills a gap. Handlers and tests import these constants; nobody retypes a
// message (`You dont have buy order on this item !` keeps its space).

export const FORBIDDEN = 'forbidden';
export const NOT_FOUND = 'Not found';
export const INTERNAL_ERROR = 'Internal server error';
/** Seed, Errors: the 429 content. */
export const rateLimited = (seconds: number) => `Rate limit exceeded. Retry after ${seconds} seconds.`;

export const LOGIN = {
  missingApiKey: 'Missing required parameter: apiKey',
  invalidApiKey: 'Invalid API key',
  countryBlocked: 'Country blocked',
} as const;

export const SESSIONS = {
  notFound: 'Session not found',
  disconnected: 'Session disconnected',
  allDisconnected: 'All sessions disconnected',
} as const;

export const ITEMS = {
  itemNotFound: 'Item not found',
  storeNotFound: 'Store not found',
  tooManyItems: 'Too many items (max 100)',
} as const;

export const BUY_ORDERS = {
  notEnoughBalance: 'Not enough balance',
  alreadyExists: 'You already have buy order on this item please remove them in your profile page!',
  maxItems: 'Max 5000 items',
  invalidNumber: 'Value/Amount/Itemid must be a (positive) number',
  noneToUpdate: 'You dont have buy order on this item !',
  notFound: 'No buy order found',
} as const;
