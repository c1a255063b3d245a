// Every message the API sends, verbatim from the seed ("Messages by endpoint", "Errors") or from
// the document where it fills a gap (marked "document"). Handlers and tests import these
// constants; nobody retypes a message (`You dont have buy order on this item !` keeps its space).
// messages.test.ts checks both directions: each constant is in the document, and each message of
// the seed's table has a constant. Request-validation messages (`Invalid <field> parameter`) are
// read from the document by the HTTP layer (ADR 0002) and are not repeated here.

export { FORBIDDEN, INTERNAL_ERROR, NOT_FOUND, PROTOCOL, rateLimited } from '@marketplace/contract';

/**
 * Document (this project's extension, Errors): HTTP 503 with Retry-After while the service's
 * database cannot be reached (PostgreSQL restarting, its connections dropped).
 */
export const SERVICE_UNAVAILABLE = 'Service unavailable';

export const LOGIN = {
  missingApiKey: 'Missing required parameter: apiKey',
  invalidApiKey: 'Invalid API key',
  countryBlocked: 'Country blocked',
} as const;

/** Document: the seed shows `content.message` of the disconnect routes without its text. */
export const SESSIONS = {
  notFound: 'Session not found',
  disconnected: 'Session disconnected',
  allDisconnected: 'All sessions disconnected',
} as const;

/** Document: the seed names no message for these conditions. */
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

export const CART = {
  missingAssetId: 'Missing required parameter: assetId',
  notAvailable: 'Item not available for purchase',
  alreadyInCart: 'Item already in cart',
  missingBulkParameters: 'Missing required parameters: itemId, count',
  invalidItemId: 'Invalid itemId parameter',
  invalidCount: 'Invalid count parameter. Must be a positive number',
  noItemsAvailable: 'No items available',
  missingCartId: 'Missing required parameter: cartId',
  invalidCartId: 'Invalid cartId parameter',
  cartItemNotFound: 'Cart item not found',
  cannotUpdate: 'Cannot update cart',
  /** Document: POST /cart/checkout (extension). Its balance refusal is SALE.notEnoughBalance. */
  cartEmpty: 'Cart is empty',
  integrityFailed: 'Cart integrity check failed',
  checkoutComplete: 'Checkout complete',
} as const;

/** A sale paid out of the balance (cart checkout, the document's extension) that it cannot cover. */
export const SALE = {
  notEnoughBalance: 'Not enough balance',
} as const;

export const INVENTORY = {
  missingParameters: 'Missing required parameters',
  invalidIds: 'Invalid ids format',
  invalidPrice: 'Price too high or invalid',
  notOwned: 'Item not found or not owned',
  /** Seed: "the error states the maximum"; the wording is the document's. */
  priceLimit: (maxCents: number | string) => `Price limit exceeded (maximum ${maxCents} cents)` as const,
  tradeHold: 'This item will be locked for 7 days',
  /** The document: an asset neither in inventory nor listed (state not 0 or 1). */
  notAvailable: 'Item not available',
  missingIds: 'Missing required parameter: ids',
  noValidIds: 'No valid item IDs provided',
  itemsNotFound: 'Items not found',
  notWithdrawable: 'Items not available for withdrawal',
} as const;

export const DEPOSIT = {
  missingValue: 'missing value parameter',
  missingDepositKeys: 'missing depositKeys parameter',
  invalidGame: 'invalid game parameter',
  invalidValueJson: 'invalid JSON format in value parameter',
  invalidDepositKeysJson: 'invalid JSON format in depositKeys parameter',
  valueNotObject: 'value must be a JSON object with assetId - price mapping',
  invalidDepositKey: (assetId: string) => `invalid deposit key for assetId: ${assetId}` as const,
  saveFailed: 'failed to save deposit price',
  instantSellUnsupported: 'instant sell is not supported for this game',
  /** Document: the JSON a string `value` / `depositKeys` holds breaks the schema's rules. */
  invalidValue: 'Invalid value parameter',
  invalidDepositKeys: 'Invalid depositKeys parameter',
  /** Document: GET /deposit/tradeStatus/{tradeid}, content types `error`, `notFound`, `forbidden`. */
  invalidTradeId: 'Invalid trade ID',
  depositTradeNotFound: 'Deposit trade not found',
  depositTradeForbidden: 'Deposit trade belongs to another user',
  /** Document: POST /instantsell/trade (the deposit trade's inputs, `prices` for `value`). */
  missingPrices: 'missing prices parameter',
  invalidPricesJson: 'invalid JSON format in prices parameter',
  pricesNotObject: 'prices must be a JSON object with assetId - price mapping',
  invalidPrices: 'Invalid prices parameter',
  noBuyOrderForDepositAsset: (assetId: string) => `No buy order for assetId: ${assetId}` as const,
} as const;

/** Document: withdrawals, the trade lists, resend and the admin revert. */
export const TRADES = {
  withdrawalInitiated: 'Withdrawal initiated',
  tradeNotFound: 'Trade not found',
  cannotResend: 'Trade cannot be resent',
  resent: 'Trade offer resent',
  reverted: 'Trade reverted',
} as const;

export const ACCOUNT = {
  invalidTradeUrl: 'Invalid trade URL format',
  tradeUrlValidationFailed: 'Trade URL validation failed',
  tradeUrlOtherAccount: 'Trade URL belongs to different account',
  shortUrlTaken: 'Short URL already taken',
  shortUrlInvalidCharacters: 'Invalid characters',
  shortUrlLength: 'Short URL too short/long',
  shortUrlReserved: 'Short URL is reserved',
  /** Document: seed Limits, "changeable once per month", names no message. */
  shortUrlCooldown: 'Short URL can only be changed once per month',
  transactionNotFound: 'Transaction not found or access denied',
  /** Document: the seed names neither the alert ID parameter nor the answers of these routes. */
  paymentAlertNotFound: 'Payment alert not found',
  paymentAlertClosed: 'Payment alert closed',
  paymentReviewsClosed: 'Payment reviews closed',
  affiliateRegistered: 'Affiliate click registered',
  notificationsUpdated: 'Notification settings updated',
  emailNotificationsEnabled: 'Email notifications enabled',
  emailNotificationsDisabled: 'Email notifications disabled',
  privacyUpdated: 'Privacy settings updated',
  tradeUrlUpdated: 'Trade URL updated',
  shortUrlUpdated: 'Short URL updated',
} as const;

/** Codes sent by e-mail: e-mail change and the second 2FA reset variant share these. */
export const CODES = {
  invalidOrExpired: 'Invalid or expired code',
  requestNotFound: 'Request not found',
  tooManyAttempts: 'Too many attempts',
} as const;

export const EMAIL_CHANGE = {
  emailInUse: 'Email already in use',
  invalidEmail: 'Invalid email format',
  twoFactorRequired: '2FA validation required',
  tooManyRequests: 'Too many requests',
  requested: 'Email change request created successfully',
  validated: 'Email change validation success',
} as const;

export const TWO_FACTOR = {
  invalidEmail: 'Invalid email',
  invalidCode: 'Invalid code',
  missingPostParameters: 'Missing post parameters',
  notSetUp: '2FA not set up',
  backupCodeUsed: 'Backup code already used',
  notActivated: '2FA is not activated',
  noResetEmail: 'No 2FA email found for this user',
  sendFailed: 'Failed to send email',
  invalidResetCode: 'Invalid reset code',
  removeFailed: 'Failed to remove 2FA',
  missingCode: 'Missing code parameter',
  activated: '2FA activated',
  resetSent: 'Reset code sent to email',
  removed: '2FA has been removed',
} as const;

export const CASHOUT = {
  insufficientBalance: 'Insufficient balance',
  belowMinimum: 'Amount below minimum',
  methodNotLinked: 'Payment method not linked',
  pendingExists: 'Pending cashout exists',
  verificationRequired: 'Account verification required',
  cooldown: 'Cooldown period',
  /** Document: cancelling and linking are not shown by the seed. */
  notFound: 'Cashout not found',
  cannotCancel: 'Cashout cannot be cancelled',
  methodAlreadyLinked: 'Payment method already linked',
} as const;

export const SUPPORT = {
  missingTicket: 'Missing required parameter: ticket',
  ticketNotFound: 'Ticket not found or no access',
  missingCreateParameters: 'Missing required parameters: subject, description, topic, concern',
  invalidAttachment: 'Invalid attachment',
  missingPostParameters: 'Missing required parameters: content, ticket',
  ticketClosed: 'Cannot send message: ticket is closed',
  /** Document: what a support-blocked user (POST /admin/support/block) is told. */
  blocked: 'You are blocked from support',
  /** Document: POST /admin/support/post with no content (also when nothing is left once stripped). */
  missingAdminContent: 'Missing required parameter: content',
  /** Document: POST /admin/support/block for a user ID no account has. */
  invalidUser: 'Invalid user parameter',
  /** Document: the length limits (Limits: support message max 10,000 characters, admin 200,000). */
  invalidDescription: 'Invalid description parameter',
  invalidContent: 'Invalid content parameter',
  /** Document: POST /admin/support/status with a status other than 0, 1, 2. */
  invalidTicketStatus: 'Invalid status parameter',
} as const;

export const GIVEAWAYS = {
  cannotJoin: 'Cannot join this raffle',
  urlRequired: 'Raffle url is required',
  commentEmpty: 'Comment cannot be empty',
  commentTooLong: 'Comment is too long (maximum 300 characters)',
  commentCooldown: 'You can only post one comment every 10 minutes',
  createRateLimited: 'Rate limit exceeded. Maximum 1 giveaway per hour',
  invalidParameters: 'Invalid parameters',
  invalidDuration: 'Invalid time duration',
  itemsRequired: 'Items are required',
  twoFactorRequired: '2FA required',
  itemsNotFound: 'Items not found or too many items (max 50)',
  publicMinimum: 'Minimum 100 entries required for public giveaways',
  privateMinimum: 'Minimum 2 entries required for private giveaways',
  /** Document. */
  notFound: 'Giveaway not found',
  notJoined: 'Not in this giveaway',
  commentNotFound: 'Comment not found',
} as const;

export const ADMIN = {
  missingBanParameters: 'Missing required parameters: platformId, time, reason',
  adminUserNotFound: 'Admin user not found',
  missingBlockParameters: 'Missing required parameters: user, status',
  invalidBlockStatus: 'Invalid status. Status must be 0 (unblocked) or 1 (blocked)',
  missingTrade: 'Missing required parameter: trade',
  tradeNotFound: 'Trade not found',
  noFailedTrade: 'No trade found with status -1 to revert',
} as const;
