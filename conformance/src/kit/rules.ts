// The seed's rules, each with an ID: its business rules, states and transitions, error catalogue,
// limits, authentication rules and events, quoted verbatim from docs/seed/item-marketplace-api.md
// (rules.test.ts checks every quote against the seed, and that every row of those tables is
// quoted). A test names the rules it checks in its title: `... [R-CASHOUT-PROCESS, R-LIMIT-CASHOUT]`.
// The coverage report turns the names into the rule matrix: each rule, the tests that check it,
// and the rules no test checks, each with the reason it cannot be checked through HTTP.

export type RuleSection =
  | 'Business rules'
  | 'States and transitions'
  | 'Errors'
  | 'Limits'
  | 'Authentication'
  | 'Events';

export interface Rule {
  id: string;
  section: RuleSection;
  /** The seed's words, verbatim: sentences or whole table rows. */
  seed: string[];
  /**
   * A rule of the document's own where the seed shows none (openapi.yaml, "This document's rules":
   * "it is a rule of this API like the seed's own"): its sentences, verbatim but for line breaks;
   * `seed` is then empty.
   */
  document?: string[];
  /**
   * The file of openapi/ (not bundled/) the `document` quotes are found in, when it is not
   * openapi.yaml: a path's own file (`paths/user_login.yaml`) for a rule only its operation states.
   */
  documentFile?: string;
  /** Why no test can check the rule through HTTP (no test names it). */
  unchecked?: string;
  /** The part of a checked rule that no test can check through HTTP, and why. */
  partly?: string;
  /**
   * What the rule sets besides values (issue 22): a time on the clock (an expiry, cooldown, window,
   * hold, end, ban), a list order, a computed amount, a count that is served up to a number and
   * refused past it. The rule matrix must show the sides of each that passing tests check
   * (`missingSides`).
   */
  nature?: Nature[];
  /**
   * Why the document does not settle the exact second of a time rule (its "Conventions" settle
   * every period stated in seconds): its passing tests need only the seconds around it.
   */
  openAt?: string;
}

export type Nature = 'time' | 'order' | 'amount' | 'count';

export const RULES: Rule[] = [
  {
    id: 'R-MONEY-CENTS',
    section: 'Business rules',
    seed: [
      'Monetary amounts are integer cents of US dollars (150 means 1.50 dollars) unless a field is stated as float.',
    ],
  },
  {
    id: 'R-USER-ID-STRING',
    section: 'Business rules',
    seed: ['A user is identified by a 64-bit platform user ID sent as a string (`<platform_user_id>`).'],
  },
  {
    id: 'R-GAMES',
    section: 'Business rules',
    seed: [
      '| 440 | team-based shooter |',
      '| 730 | competitive tactical shooter |',
      '| 570 | team strategy arena game |',
      '| 252490 | survival game |',
      "| 753 | the platform's own community items (accepted by `GET /item/prices` only) |",
    ],
  },
  {
    id: 'R-ENVELOPE-A',
    section: 'Business rules',
    seed: [
      '| err | boolean | true when the request failed |',
      '| success | boolean | true when the request succeeded |',
      '| content | any | payload on success; message string or object on failure |',
    ],
  },
  {
    id: 'R-ENVELOPE-B',
    section: 'Business rules',
    seed: ['| status | string | `success` on success |', '| data | any | payload |'],
  },
  {
    id: 'R-JSON-BODIES',
    section: 'Business rules',
    seed: [
      'Request bodies may be JSON (`Content-Type: application/json`); the router merges JSON into the POST parameters.',
    ],
  },
  {
    id: 'R-ITEM-SLUG',
    section: 'Business rules',
    seed: ['Item identifiers in paths are numeric item IDs; `GET /item/details/{item}` also accepts the URL slug.'],
  },
  {
    id: 'R-LISTING-SELLER-HIDDEN',
    section: 'Business rules',
    seed: [
      '| user | string | owner (seller) platform user ID; omitted for non-admin callers |',
      '| ip | string | omitted for non-admin callers |',
    ],
  },
  {
    id: 'R-BACKPACK-DETAILS',
    section: 'Business rules',
    seed: [
      '`craftable` is an empty string for every game other than 440, and keeps 0 or 1 for game 440. Trailing spaces and trailing semicolons are removed from all string fields.',
    ],
  },
  {
    id: 'R-INVENTORY-ROWS',
    section: 'Business rules',
    seed: ['`ids` (string, comma-separated asset IDs of the grouped rows), `count` (integer)'],
  },
  { id: 'R-BUYORDER-UNIQUE', section: 'Business rules', seed: ['A buy order is unique per user and item.'] },
  {
    id: 'R-BUYORDER-RESERVE',
    section: 'Business rules',
    seed: ['Buying power of value x amount is reserved from balance.'],
  },
  {
    id: 'R-BUYORDER-TIERS',
    section: 'Business rules',
    nature: ['order'],
    seed: [
      'an object with keys `0` to `4` (up to five price tiers, highest first) and `more`',
      '`more` aggregates the remaining tiers (count and lowest price).',
    ],
  },
  {
    id: 'R-PRICING',
    section: 'Business rules',
    seed: [
      '| pricing.lowest_sale_price | float | lowest active listing, cents |',
      '| pricing.lowest_buy_order | float | highest active buy order, cents |',
      '| pricing.platform_price | float | external market price, cents |',
    ],
  },
  {
    id: 'R-PRICING-BULK-DUPLICATES',
    section: 'Business rules',
    seed: ['Duplicate IDs in the query are counted separately.'],
  },
  {
    id: 'R-SALES-GRAPH-PERIODS',
    section: 'Business rules',
    seed: [
      'Daily (periods 1M, 3M, 6M, 1Y): `{date: string YYYY-MM-DD HH:MM:SS, price: integer total cents that day, nb: integer sales}` inside `content.values`.',
      'Weekly (periods 5Y, ALL): `{first_date: string (Monday), week: string YYYYWW, total_price: integer cents, total_nb: integer}` inside `content.values`.',
    ],
  },
  { id: 'R-CART-ROW', section: 'Business rules', seed: ['One row groups assets of one item at one price.'] },
  {
    id: 'R-USER-2FA-STRING',
    section: 'Business rules',
    seed: ['| 2fa | string | `true` or `false` (string, not boolean) |'],
  },
  {
    id: 'R-BALANCE-TRANSACTION',
    section: 'Business rules',
    seed: ['`amount` integer (negative for debits), `balance` integer (after)'],
  },
  {
    id: 'R-SALES-SUMMARY',
    section: 'Business rules',
    nature: ['time', 'amount'],
    seed: [
      'Sales summary: `totalSales, totalRevenue, averageSalePrice, itemsSold, last30DaysSales, last30DaysRevenue`.',
      'Sales chart rows (last 30 days): `{date: YYYY-MM-DD, sales: integer, revenue: integer}`.',
    ],
  },
  {
    id: 'R-IPLIST',
    section: 'Business rules',
    nature: ['order', 'time', 'count'],
    seed: [
      '`perPage` (also accepted as `perpage`; int, default 10, max 50), `expire` (string, `true` includes expired)',
      '`current` boolean (the current session)',
    ],
  },
  {
    id: 'R-DISCONNECT',
    section: 'Business rules',
    seed: [
      '| GET | `/user/disconnect` | Connected + API | none | `content.disconnect` = true |',
      '| GET | `/user/disconnectSession/{id}` | Connected + API | path `id` integer (session ID from the session list) | `content.message` string |',
    ],
  },
  {
    id: 'R-ITEM-PRICES-FILTERS',
    section: 'Business rules',
    seed: ['`outofstock` (integer 0 in-stock only, 1 include out-of-stock)'],
  },
  {
    id: 'R-LISTINGS',
    section: 'Business rules',
    nature: ['order'],
    seed: [
      'array of listings sorted by price ascending; `user` and `ip` omitted for non-admins',
      '`page` (int, default 0; offset = page x count)',
      'optional `userid` seller filter',
    ],
  },
  {
    id: 'R-PUBLIC-PRICE',
    section: 'Business rules',
    seed: [
      'CSV: a CSV string with header `itemId,name,game,buyPrice,sellPrice,platformPrice,listingCount,buyOrderCount`',
    ],
  },
  {
    id: 'R-PUBLIC-SALES-FILTERS',
    section: 'Business rules',
    nature: ['time', 'order', 'count'],
    seed: [
      'query `game` (int), `limit` (int, default 100, max 1000), `since` (Unix timestamp; only later sales)',
      '(IDs anonymized)',
    ],
  },
  {
    id: 'R-COMPACT-PRICES',
    section: 'Business rules',
    seed: ['Variant B: `data.prices` array of `{item_id, buyorder_price, lowest_sale_price}` (cents).'],
  },
  { id: 'R-INFOS-ADMIN', section: 'Business rules', seed: ['JSON array of staff entries `{name, platformId, role}`'] },
  {
    id: 'R-STORE',
    section: 'Business rules',
    seed: ['minimal public info (`platformId`, `image`, `name`) or an error when unknown'],
  },
  {
    id: 'R-BUYORDER-LIST-FILTERS',
    section: 'Business rules',
    nature: ['order', 'count'],
    seed: [
      'a search term (min 3 characters, filters effect or name), `undercut` (boolean, true or 1: only orders below current lowest sale price)',
      'ordered by buy order ID descending; only rows with amount not 0',
    ],
  },
  {
    id: 'R-CART-BULK',
    section: 'Business rules',
    nature: ['order'],
    seed: [
      "`sellerUserId` string optional (only that seller's listings)",
      'cheapest listings by price ascending then last update, excluding assets already in the cart; one row per distinct price',
    ],
  },
  {
    id: 'R-CART-ADD',
    section: 'Business rules',
    seed: ['Add requires the asset to be for sale (state 1) and not owned by the caller.'],
  },
  {
    id: 'R-CART-UPDATE-STEPS',
    section: 'Business rules',
    seed: [
      '`POST /cart/update` steps: (1) verify each asset: still exists, state 1, same price, not own;',
      'Reasons: `not_found` (no longer exists), `unavailable` (state not 1), `price_changed`, `own_item`.',
    ],
  },
  {
    id: 'R-INVENTORY-LISTS',
    section: 'Business rules',
    seed: [
      '| GET | `/inventory/onSale` | none | `content.items`, `content.count`; rows in state 1 |',
      '| GET | `/inventory/onInventory` | none | rows in state 0 |',
    ],
  },
  {
    id: 'R-PRICE-VALIDATION',
    section: 'Business rules',
    seed: [
      '`POST /inventory/price` validates ownership, per-item price limit, the 7-day trade hold for game 730 items, and availability; then matches buy orders (see States).',
    ],
  },
  {
    id: 'R-DEPOSIT-GAME',
    section: 'Business rules',
    seed: [
      '| GET | `/deposit/{game}` | Connected + API | path `game` (440, 730, 570 or 252490) | `content.informations` array of rows; includes a `depositkey` map keyed by asset ID, pricing hints and optional disabled / high-stock fields |',
    ],
  },
  {
    id: 'R-DEPOSIT-TRADE',
    section: 'Business rules',
    seed: [
      '`value` (object mapping asset ID to price in cents; JSON object or JSON string), `depositKeys` (object mapping asset ID to the `depositkey` from `GET /deposit/{game}`; JSON object or string)',
    ],
  },
  {
    id: 'R-DEPOSIT-KEY',
    section: 'Business rules',
    seed: [
      'Each deposit key must equal the SHA-256 digest of the concatenation of a server-side secret, the asset ID and the user ID; a mismatch yields the error `invalid deposit key for assetId: <asset_id>`.',
    ],
  },
  {
    id: 'R-INSTANT-SELL',
    section: 'Business rules',
    nature: ['amount'],
    seed: [
      'Instant sell (game 440 only): one endpoint returns instant-sell information in `content.informations`, built from cached deposit lists and buy order tiers',
      'returns an error `instant sell is not supported for this game` for other games.',
    ],
  },
  { id: 'R-CSV-TOKEN', section: 'Business rules', seed: ['a SHA-512 token for CSV export authentication'] },
  {
    id: 'R-AFFILIATES',
    section: 'Business rules',
    seed: ['registers an affiliate click with an affiliate tracking service'],
  },
  {
    id: 'R-MAIL-SETTINGS',
    section: 'Business rules',
    seed: [
      '`content{message, notifications}` echoing the stored values',
      '`settings` object of booleans `profilePublic`, `inventoryPublic`, `tradeHistoryPublic`, `showOnLeaderboard`',
    ],
  },
  {
    id: 'R-TRADE-URL',
    section: 'Business rules',
    seed: [
      "`tradeUrl` string required; must begin with `{trade_url_prefix}` (the platform's trade offer URL prefix ending in `?partner=`)",
    ],
  },
  {
    id: 'R-SHORT-URL-RULES',
    section: 'Business rules',
    nature: ['count'],
    seed: [
      '`shortUrl` string required, 3 to 20 characters, alphanumeric and hyphens only',
      '`fullUrl` has the form `{site_url}/u/<shortUrl>`',
    ],
  },
  {
    id: 'R-BALANCE-HISTORY',
    section: 'Business rules',
    nature: ['order'],
    seed: [
      '`type` filter (`deposit`, `sale`, `purchase`, `cashout`, `bonus`, `refund`)',
      'first page (page 0) returns `values` and `count`',
    ],
  },
  {
    id: 'R-SALES-HISTORY',
    section: 'Business rules',
    nature: ['time', 'order'],
    seed: ['`page`, `perPage`, optional `range`, `search`'],
  },
  {
    id: 'R-CASHOUT-HISTORY',
    section: 'Business rules',
    nature: ['order'],
    seed: ['page size as `count`, `perpage` or `limit`'],
  },
  {
    id: 'R-TRANSACTION-HISTORY',
    section: 'Business rules',
    nature: ['order'],
    seed: ['unified chronological history of balance changes, purchases, sales and cashouts'],
  },
  {
    id: 'R-TRANSACTION-DETAILS',
    section: 'Business rules',
    seed: [
      '`transactionId` (string, required); a `type` filter (`sale`, `purchase`, `deposit`, `cashout`, `balance`) is also described',
    ],
  },
  {
    id: 'R-SALES-CHART',
    section: 'Business rules',
    nature: ['time'],
    openAt:
      'the windows are days (7, 30, 365) drawn one row per day, and the document states no time zone for the days: where a window starts is open by up to a day.',
    seed: ['optional `period` (`1W`, `1M`, `1Y`, `All`), `chart`, `chart_only` (returns graph data only)'],
  },
  {
    id: 'R-NOTIFICATIONS-READ',
    section: 'Business rules',
    seed: [
      '| POST | `/user/closePaymentReviews` | connected | none | marks all payment reviews read |',
      '| POST | `/user/closePaymentAlert` | connected | one parameter carrying the payment alert ID | marks the alert read |',
    ],
  },
  {
    id: 'R-EMAIL-CHANGE',
    section: 'Business rules',
    seed: [
      'a verification e-mail with a code goes to the new address',
      'On success, all other sessions of the user are terminated.',
    ],
  },
  {
    id: 'R-2FA',
    section: 'Business rules',
    seed: [
      '`data{qrCode: string URL of QR image, base32: string secret for manual entry, key: string random key component}`',
      '`secret` (the `key` from create), `code` (6-digit TOTP code), `email` (backup address); all required',
    ],
  },
  {
    id: 'R-2FA-RESET',
    section: 'Business rules',
    seed: [
      '`data` = `Reset code sent to email` (code is sent to the backup e-mail)',
      '`POST /user/reset2FA/validate` takes `code` (string) and `requestId` (integer)',
    ],
  },
  {
    id: 'R-CASHOUT-RULES',
    section: 'Business rules',
    nature: ['amount', 'count'],
    seed: [
      'Fees: `provider_a` 2 percent, `provider_b` 1.5 percent; minimum 5000 cents for both; processing time 1 to 3 business days for `provider_a`, 3 to 5 for `provider_b`. A payment method must be linked first; the amount plus fees must not exceed balance.',
    ],
  },
  {
    id: 'R-SUPPORT-TICKETS',
    section: 'Business rules',
    nature: ['order'],
    seed: [
      'List row: `ticket` integer (ticket number), `subject`, `topic`, `concern`, `status` integer, `last_message`, `created`.',
      '`subject` string, `description` string, `topic` string (for example trading, payment, account), `concern` string (for example deposit, withdrawal, ban) all required; `attachment` optional base64 string',
    ],
  },
  {
    id: 'R-SUPPORT-POST',
    section: 'Business rules',
    nature: ['count'],
    seed: [
      '`content` string required (max 10,000 characters; HTML tags stripped), `ticket` integer required, `attachment` optional base64',
    ],
  },
  {
    id: 'R-ADMIN-SUPPORT',
    section: 'Business rules',
    seed: [
      '`data{messages[], ticket}`; messages carry `assigned` and textual `status`',
      '| POST | `/admin/support/status` | admin; `ticket` integer, `status` integer, `user` string; all required | `data{message, ticket, status}` |',
    ],
  },
  {
    id: 'R-MESSAGES-LIST',
    section: 'Business rules',
    seed: ['| GET | `/messages/list` | none | `data.list` array of recent conversations |'],
  },
  {
    id: 'R-GIVEAWAY-LISTS',
    section: 'Business rules',
    nature: ['order'],
    seed: [
      '| GET | `/giveaways` | active public giveaways |',
      '| GET | `/giveaways/history` | ended public giveaways |',
      "| GET | `/giveaways/my` | caller's active giveaways |",
      "| GET | `/giveaways/history/my` | caller's ended giveaways |",
    ],
  },
  {
    id: 'R-GIVEAWAY-JOIN',
    section: 'Business rules',
    seed: [
      '| POST | `/giveaways/join/:url` | joins; validates entry limits and activity |',
      '| POST | `/giveaways/leave/:url` | leaves |',
      '| GET | `/giveaways/isIn/:url` | whether the caller joined |',
      '| GET | `/giveaways/joinedList` | giveaways the caller joined |',
    ],
  },
  {
    id: 'R-GIVEAWAY-DETAILS',
    section: 'Business rules',
    seed: [
      "| GET | `/giveaways/details/:url` | details with participants and items; `url` is the giveaway's unique URL identifier |",
    ],
  },
  {
    id: 'R-GIVEAWAY-COMMENTS',
    section: 'Business rules',
    nature: ['order', 'count'],
    seed: [
      'paginated comments; page number is 0-indexed; 10 comments per page',
      '| POST | `/giveaways/deleteComment/:id` | admin; `id` = comment ID |',
    ],
  },
  {
    id: 'R-GIVEAWAY-CREATE',
    section: 'Business rules',
    nature: ['count'],
    seed: [
      'one giveaway per hour; requires 2FA; transfers the chosen inventory items into the giveaway pool',
      'Create inputs: name; maximum number of participants (minimum 100 for public, 2 for private); type (`0` public, `1` private)',
    ],
  },
  {
    id: 'R-ADMIN-BANLIST',
    section: 'Business rules',
    nature: ['order', 'time'],
    seed: ["query: platform user ID; returns that user's ban history"],
  },
  {
    id: 'R-ADMIN-INVENTORY',
    section: 'Business rules',
    seed: ["fetches the user's inventory directly from the external platform"],
  },
  {
    id: 'R-RESEND',
    section: 'Business rules',
    seed: [
      'Resend trade: method GET, permission Connected + API, query parameter `id` (the internal trade ID from the active or all trades list; the parameter is named `id`, not `resend`); retries sending a trade that meets server conditions',
    ],
  },
  {
    id: 'R-STATE-BACKPACK',
    section: 'States and transitions',
    seed: [
      '| 0 | in inventory, not listed | yes | yes |',
      '| 1 | listed for sale | yes | yes |',
      '| 2 | pending withdrawal | no | no |',
      '| 3 | in active trade | no | no |',
      '| negative | reserved (for example giveaway) | no | no |',
    ],
  },
  {
    id: 'R-TRANS-ITEM-LIST',
    section: 'States and transitions',
    seed: [
      '| item | `POST /inventory/price` | price valid, owned, no trade hold, no buy order at or above price | 1 | listed at the price |',
    ],
  },
  {
    id: 'R-TRANS-ITEM-SELL',
    section: 'States and transitions',
    nature: ['amount'],
    seed: [
      '| item | `POST /inventory/price` | a buy order exists at or above price | sold | buyer balance debited; seller receives 95 percent of the price (5 percent fee); recorded in history |',
    ],
  },
  {
    id: 'R-TRANS-ITEM-WITHDRAW',
    section: 'States and transitions',
    seed: [
      '| item | `POST /inventory/withdraw` | item in state 0 or 1 | 2 | counted in `updated`; items locked in trades counted in `locked`; a trade offer to the owner is initiated |',
    ],
  },
  {
    id: 'R-TRANS-CART-ADD',
    section: 'States and transitions',
    seed: [
      '| cart row | `POST /cart/add` | asset in state 1, not owned by caller, not already in cart | row exists | price stored |',
    ],
  },
  {
    id: 'R-TRANS-CART-UPDATE',
    section: 'States and transitions',
    seed: [
      '| cart row | `POST /cart/update` | asset missing, state not 1, price differs, or own item | replaced by a plain equivalent at same price, else asset removed | row deleted when it has no assets |',
    ],
  },
  {
    id: 'R-TRANS-BUYORDER-CREATE',
    section: 'States and transitions',
    seed: [
      '| buy order | `POST /item/buyorder` | none exists for item and user; balance covers value x amount | active | value x amount reserved |',
    ],
  },
  {
    id: 'R-TRANS-BUYORDER-UPDATE',
    section: 'States and transitions',
    seed: [
      '| buy order | `POST /item/buyorder/update` | one exists | active with new terms | old reservation released, new reserved |',
    ],
  },
  {
    id: 'R-TRANS-BUYORDER-REMOVE',
    section: 'States and transitions',
    seed: ['| buy order | `POST /item/buyorder/remove` | one exists | removed | reservation released |'],
  },
  {
    id: 'R-TRANS-BUYORDER-FILL',
    section: 'States and transitions',
    nature: ['amount'],
    seed: [
      '| buy order | a matching item is listed at or below its price | automatic | filled (quantity decreases) | owner is notified |',
    ],
  },
  {
    id: 'R-TRANS-CASHOUT-PENDING',
    section: 'States and transitions',
    seed: ['| cashout | `POST /cashout/process` | accepted | `pending` | |'],
  },
  {
    id: 'R-TRANS-CASHOUT-PROCESSING',
    section: 'States and transitions',
    seed: ['| cashout | provider handling | | `processing` | cannot be cancelled in this state |'],
  },
  {
    id: 'R-TRANS-CASHOUT-COMPLETED',
    section: 'States and transitions',
    seed: ['| cashout | payment succeeds | | `completed` | |'],
  },
  {
    id: 'R-TRANS-CASHOUT-FAILED',
    section: 'States and transitions',
    nature: ['amount'],
    seed: ['| cashout | payment fails | | `failed` | balance refunded |'],
  },
  {
    id: 'R-TRANS-BAN',
    section: 'States and transitions',
    nature: ['time'],
    seed: ['| user ban | `POST /admin/ban` | time greater than 0 | banned | notification to moderation channel |'],
  },
  {
    id: 'R-TRANS-UNBAN',
    section: 'States and transitions',
    seed: ['| user ban | `POST /admin/ban` | time 0 | unbanned | |'],
  },
  {
    id: 'R-TRANS-SUPPORT-BLOCK',
    section: 'States and transitions',
    seed: ['| support block | `POST /admin/support/block` | status 1 / 0 | blocked / unblocked | |'],
  },
  {
    id: 'R-TRANS-REVERT',
    section: 'States and transitions',
    seed: [
      "| trade | `POST /admin/revertTrade/{trade}` | trade has status -1 | reverted | items restored to the user's inventory |",
    ],
  },
  {
    id: 'R-STATE-OFFER',
    section: 'States and transitions',
    seed: [
      '| 0 | active / pending |',
      '| 1 | accepted |',
      '| 2 | declined |',
      '| 3 | removed / cancelled |',
      '| -1 | auto-cancelled: buyer balance |',
      '| -2 | auto-cancelled: expired |',
      '| -3 | auto-cancelled: item unavailable |',
    ],
    unchecked:
      'No operation of the seed or of the document returns an offer record with its status ("Fields of an offer record: not shown"; "Offers endpoints ...: not shown"); the platform offers of the test helpers carry the trade status instead.',
  },
  {
    id: 'R-STATE-TRADE',
    section: 'States and transitions',
    nature: ['order'],
    seed: ['| 0 | pending |', '| 3 | completed |', '| -1 | failed |', '| -11 | hidden |', '| -12 | reverted (admin) |'],
    partly:
      '-11 (hidden): no operation of the seed or of the test helpers hides a trade, so its absence from the trade lists cannot be shown.',
  },
  {
    id: 'R-STATE-DEPOSIT',
    section: 'States and transitions',
    seed: ['Deposit trade statuses: `0` pending, `3` completed, `-1` failed.'],
  },
  {
    id: 'R-STATE-CASHOUT',
    section: 'States and transitions',
    seed: [
      '| pending | request is being processed |',
      '| processing | payment is being sent |',
      '| completed | payment completed |',
      '| failed | payment failed, balance refunded |',
      '| cancelled | cancelled by the user |',
    ],
  },
  {
    id: 'R-STATE-TICKET',
    section: 'States and transitions',
    seed: [
      'Support tickets have an integer `status` (set by admin through `POST /admin/support/status`); a closed ticket rejects new messages.',
    ],
  },
  {
    id: 'R-STATE-GIVEAWAY',
    section: 'States and transitions',
    nature: ['time'],
    seed: ['Giveaways are either active or ended (separate list endpoints).'],
  },
  {
    id: 'R-ERR-ENVELOPE-A',
    section: 'Errors',
    seed: ['`{err: true, success: false, content: <message string or object>}`.'],
  },
  { id: 'R-ERR-ENVELOPE-B', section: 'Errors', seed: ['In envelope B the error status is `error` with the message'] },
  { id: 'R-ERR-200', section: 'Errors', seed: ['| 200 | | success |'] },
  { id: 'R-ERR-300', section: 'Errors', seed: ['| 300 | `error` | business error (often this code) |'] },
  {
    id: 'R-ERR-403',
    section: 'Errors',
    seed: [
      '| 403 | `forbidden` | missing or invalid JWT, blocked country, insufficient permission (content `forbidden`) |',
    ],
  },
  { id: 'R-ERR-404', section: 'Errors', seed: ['| 404 | not found | not found |'] },
  {
    id: 'R-ERR-429',
    section: 'Errors',
    seed: [
      '| 429 | | rate limited; content is a short message of the form `Rate limit exceeded. Retry after N seconds.` |',
    ],
  },
  {
    id: 'R-ERR-500',
    section: 'Errors',
    seed: ['| 500 | | server error (content `Internal server error`) |'],
    unchecked:
      'A correct server answers 500 only when it fails itself, which no request can make it do; the contract level checks that bad input never gets a 5xx and that any answer seen, a 500 included, has the documented envelope.',
  },
  {
    id: 'R-MSG-LOGIN-MISSING',
    section: 'Errors',
    seed: ['| `POST /user/login` | Missing required parameter: apiKey | apiKey absent |'],
  },
  {
    id: 'R-MSG-LOGIN-REFUSED',
    section: 'Errors',
    seed: ['| `POST /user/login` | Invalid API key / Country blocked | 403 |'],
  },
  {
    id: 'R-MSG-BUYORDER-BALANCE',
    section: 'Errors',
    seed: ['| `POST /item/buyorder` | Not enough balance | balance less than value x amount |'],
  },
  {
    id: 'R-MSG-BUYORDER-DUPLICATE',
    section: 'Errors',
    seed: [
      '| `POST /item/buyorder` | You already have buy order on this item please remove them in your profile page! | one buy order per item per user |',
    ],
  },
  {
    id: 'R-MSG-BUYORDER-MAX',
    section: 'Errors',
    nature: ['count'],
    seed: [
      '| `POST /item/buyorder`, `/update` | Max 5000 items | amount above limit (create under 500000, update 4999) |',
    ],
  },
  {
    id: 'R-MSG-BUYORDER-NUMBERS',
    section: 'Errors',
    seed: [
      '| `POST /item/buyorder` | Value/Amount/Itemid must be a (positive) number | invalid or missing parameters |',
    ],
  },
  {
    id: 'R-MSG-BUYORDER-UPDATE-BALANCE',
    section: 'Errors',
    seed: ['| `POST /item/buyorder/update` | Not enough balance | balance too low |'],
  },
  {
    id: 'R-MSG-BUYORDER-UPDATE-NONE',
    section: 'Errors',
    seed: ['| `POST /item/buyorder/update` | You dont have buy order on this item ! | none exists |'],
  },
  {
    id: 'R-MSG-BUYORDER-NOT-FOUND',
    section: 'Errors',
    seed: ['| `POST /item/buyorder/update`, `/remove` | No buy order found | removal failed / none exists |'],
  },
  {
    id: 'R-MSG-CART-ADD-MISSING',
    section: 'Errors',
    seed: ['| `POST /cart/add` | Missing required parameter: assetId | absent |'],
  },
  {
    id: 'R-MSG-CART-ADD',
    section: 'Errors',
    seed: ['| `POST /cart/add` | Item not available for purchase | not found, state not 1, or own item |'],
  },
  {
    id: 'R-MSG-CART-ADD-DUPLICATE',
    section: 'Errors',
    seed: ['| `POST /cart/add` | Item already in cart | duplicate asset |'],
  },
  {
    id: 'R-MSG-CART-BULK-MISSING',
    section: 'Errors',
    seed: ['| `POST /cart/bulk` | Missing required parameters: itemId, count | either absent |'],
  },
  {
    id: 'R-MSG-CART-BULK-ITEMID',
    section: 'Errors',
    seed: ['| `POST /cart/bulk` | Invalid itemId parameter | empty or not numeric |'],
  },
  {
    id: 'R-MSG-CART-BULK-COUNT',
    section: 'Errors',
    nature: ['count'],
    seed: [
      '| `POST /cart/bulk` | Invalid count parameter. Must be a positive number | empty, not numeric, or 0 or less |',
    ],
  },
  {
    id: 'R-MSG-CART-BULK-NONE',
    section: 'Errors',
    seed: ['| `POST /cart/bulk` | No items available | no listings match |'],
  },
  {
    id: 'R-MSG-CART-REMOVE',
    section: 'Errors',
    seed: [
      '| `POST /cart/remove` | Missing required parameter: cartId / Invalid cartId parameter / Cart item not found | absent / 0 or less / no such row for the user |',
    ],
  },
  {
    id: 'R-MSG-CART-UPDATE',
    section: 'Errors',
    seed: ['| `POST /cart/update` | Cannot update cart | exception during update |'],
    unchecked:
      '`Cannot update cart` answers an exception inside the server during the update; no request can provoke one in a correct implementation.',
  },
  {
    id: 'R-MSG-PRICE-MISSING',
    section: 'Errors',
    seed: ['| `POST /inventory/price` | Missing required parameters | ids or price absent |'],
  },
  {
    id: 'R-MSG-PRICE-IDS',
    section: 'Errors',
    seed: ['| `POST /inventory/price` | Invalid ids format | ids not a string |'],
  },
  {
    id: 'R-MSG-PRICE-RANGE',
    section: 'Errors',
    nature: ['count'],
    seed: ['| `POST /inventory/price` | Price too high or invalid | outside 1 to 5,000,000 |'],
  },
  {
    id: 'R-MSG-PRICE-NOT-OWNED',
    section: 'Errors',
    seed: ['| `POST /inventory/price` | Item not found or not owned | |'],
  },
  {
    id: 'R-MSG-PRICE-LIMIT',
    section: 'Errors',
    seed: [
      '| `POST /inventory/price` | Price limit exceeded | above per-item maximum (the error states the maximum) |',
    ],
  },
  {
    id: 'R-MSG-PRICE-HOLD',
    section: 'Errors',
    seed: ['| `POST /inventory/price` | This item will be locked for 7 days | active trade hold on a game 730 item |'],
  },
  {
    id: 'R-MSG-WITHDRAW-MISSING',
    section: 'Errors',
    seed: ['| `POST /inventory/withdraw` | Missing required parameter: ids | absent |'],
  },
  {
    id: 'R-MSG-WITHDRAW-INVALID',
    section: 'Errors',
    seed: ['| `POST /inventory/withdraw` | No valid item IDs provided | all IDs invalid |'],
  },
  {
    id: 'R-MSG-WITHDRAW-NOT-FOUND',
    section: 'Errors',
    seed: ["| `POST /inventory/withdraw` | Items not found | an ID does not exist or is not the user's |"],
  },
  {
    id: 'R-MSG-INVENTORY-WITHDRAW',
    section: 'Errors',
    seed: [
      '| `POST /inventory/withdraw` | Items not available for withdrawal | in active trades or pending withdrawal |',
    ],
  },
  {
    id: 'R-MSG-DEPOSIT-MISSING',
    section: 'Errors',
    seed: [
      '| `POST /deposit/trade` | missing value parameter; missing depositKeys parameter; invalid game parameter | absent or bad |',
    ],
  },
  {
    id: 'R-MSG-DEPOSIT-JSON',
    section: 'Errors',
    seed: [
      '| `POST /deposit/trade` | invalid JSON format in value parameter; invalid JSON format in depositKeys parameter | strings not valid JSON |',
    ],
  },
  {
    id: 'R-MSG-DEPOSIT-OBJECT',
    section: 'Errors',
    seed: ['| `POST /deposit/trade` | value must be a JSON object with assetId - price mapping | not an object |'],
  },
  {
    id: 'R-MSG-DEPOSIT-KEY',
    section: 'Errors',
    seed: [
      '| `POST /deposit/trade` | invalid deposit key for assetId: <asset_id>; failed to save deposit price | hash mismatch; persistence failure |',
    ],
  },
  {
    id: 'R-MSG-DEPOSIT-STATUS',
    section: 'Errors',
    seed: [
      '| `GET /deposit/tradeStatus/{tradeid}` | response types `error`, `notFound`, `forbidden` | invalid or missing ID; no deposit with that ID; deposit belongs to another user |',
    ],
  },
  {
    id: 'R-MSG-TRADE-URL',
    section: 'Errors',
    seed: [
      '| `POST /user/setTradeUrl` | Invalid trade URL format; Trade URL validation failed; Trade URL belongs to different account | |',
    ],
    partly: '`Trade URL validation failed` depends on the external platform, which the seed does not describe.',
  },
  {
    id: 'R-MSG-SHORT-URL',
    section: 'Errors',
    seed: [
      '| `POST /user/updateShortUrl` | Short URL already taken; Invalid characters; Short URL too short/long; Short URL is reserved | |',
    ],
  },
  {
    id: 'R-MSG-TRANSACTION-DETAILS',
    section: 'Errors',
    seed: ['| `GET /user/getTransactionDetails` | Transaction not found or access denied | |'],
  },
  {
    id: 'R-MSG-EMAIL-CHANGE-REQUEST',
    section: 'Errors',
    seed: [
      '| `POST /user/email/change/request` | Email already in use; Invalid email format; 2FA validation required; Too many requests | the last one when more than 1 request per 5 minutes |',
    ],
  },
  {
    id: 'R-MSG-EMAIL-CHANGE-VALIDATE',
    section: 'Errors',
    nature: ['count'],
    seed: [
      '| `POST /user/email/change/validate` | Invalid or expired code; Request not found; Too many attempts | code valid 24 hours |',
    ],
  },
  {
    id: 'R-MSG-CASHOUT-PROCESS',
    section: 'Errors',
    seed: [
      '| `POST /cashout/process` | Insufficient balance; Amount below minimum; Payment method not linked; Pending cashout exists; Account verification required; Cooldown period | the last: 24 hours between requests |',
    ],
  },
  {
    id: 'R-MSG-2FA-VALIDATE',
    section: 'Errors',
    seed: [
      '| `POST /user/2FA/validate` | Invalid email; Invalid code; Missing post parameters (first variant); Invalid code, 2FA not set up, Backup code already used (second variant) | |',
    ],
    partly: '`Backup code already used` (second variant): no operation of the seed hands out backup codes.',
  },
  {
    id: 'R-MSG-2FA-RESET-ASK',
    section: 'Errors',
    seed: [
      '| `POST /user/reset2FA/ask` | 2FA is not activated; No 2FA email found for this user; Failed to send email | |',
    ],
    partly: '`Failed to send email` needs the mail server to fail, which no request can cause.',
  },
  {
    id: 'R-MSG-2FA-RESET-VALIDATE',
    section: 'Errors',
    nature: ['count'],
    seed: [
      '| `POST /user/reset2FA/validate` | 2FA is not activated; Invalid reset code; Failed to remove 2FA; Missing code parameter (first variant); Invalid or expired code, Request not found, Too many attempts (second variant) | |',
    ],
    partly: '`Failed to remove 2FA` needs a storage failure, which no request can cause.',
  },
  {
    id: 'R-MSG-SUPPORT-MESSAGES',
    section: 'Errors',
    seed: [
      '| `GET /support/messages/{ticket}` | Missing required parameter: ticket; Ticket not found or no access | |',
    ],
  },
  {
    id: 'R-MSG-SUPPORT-CREATE',
    section: 'Errors',
    seed: [
      '| `POST /support/create` | Missing required parameters: subject, description, topic, concern; Invalid attachment | |',
    ],
  },
  {
    id: 'R-MSG-SUPPORT-POST',
    section: 'Errors',
    seed: [
      '| `POST /support/post` | Missing required parameters: content, ticket; Cannot send message: ticket is closed; Invalid attachment | |',
    ],
  },
  {
    id: 'R-MSG-ADMIN-SUPPORT-BLOCK',
    section: 'Errors',
    seed: [
      '| `POST /admin/support/block` | Missing required parameters: user, status; Invalid status. Status must be 0 (unblocked) or 1 (blocked) | |',
    ],
  },
  {
    id: 'R-MSG-GIVEAWAYS-JOIN',
    section: 'Errors',
    seed: ['| `POST /giveaways/join/:url` | Cannot join this raffle; Raffle url is required | |'],
  },
  {
    id: 'R-MSG-GIVEAWAYS-COMMENT',
    section: 'Errors',
    nature: ['count'],
    seed: [
      '| `POST /giveaways/comment` | Comment cannot be empty; Comment is too long (maximum 300 characters); You can only post one comment every 10 minutes | |',
    ],
  },
  {
    id: 'R-MSG-GIVEAWAYS-CREATE',
    section: 'Errors',
    nature: ['count'],
    seed: [
      '| `POST /giveaways/create` | Rate limit exceeded. Maximum 1 giveaway per hour; Invalid parameters; Invalid time duration; Items are required; 2FA required; Items not found or too many items (max 50); Minimum 100 entries required for public giveaways; Minimum 2 entries required for private giveaways | |',
    ],
  },
  {
    id: 'R-MSG-ADMIN-BAN',
    section: 'Errors',
    seed: ['| `POST /admin/ban` | Missing required parameters: platformId, time, reason; Admin user not found | |'],
  },
  {
    id: 'R-MSG-ADMIN-REVERT',
    section: 'Errors',
    seed: [
      '| `POST /admin/revertTrade/:trade` | Missing required parameter: trade; Trade not found; No trade found with status -1 to revert | |',
    ],
  },
  {
    id: 'R-LIMIT-TYPICAL-RATE',
    section: 'Limits',
    nature: ['time', 'count'],
    seed: [
      '| Typical rate limit | about 600 requests per 60-second window, for GET and POST, per user, route and method; enforced when the JWT has `API: true`; may change and may be overridden | all API routes |',
    ],
    partly:
      '"per user, route and method": no path of the document has two methods, so a limit keyed on the route alone cannot be told from one keyed on route and method. "About 600" (the document\'s "Rate limits" says it in the same words): the suite reads the number there and takes it as exact from below (every request up to it is served) and from above (the next one is refused); how far "about" reaches is not stated.',
  },
  {
    id: 'R-LIMIT-PRICES-RATE',
    section: 'Limits',
    nature: ['time', 'count'],
    seed: ['| `GET /item/prices` rate limit | 1 request per 5 minutes per API key | that route |'],
    partly:
      '"per API key": the test helpers give a user one API key, so a limit per user cannot be told from one per API key (two sessions of one key and two users are checked).',
  },
  {
    id: 'R-LIMIT-429-HEADERS',
    section: 'Limits',
    seed: [
      '| 429 headers | `X-RateLimit-Limit` (quota), `X-RateLimit-Remaining`, `X-RateLimit-Reset` (Unix time the window resets), `Retry-After` (seconds); all integers | rate-limited responses |',
    ],
  },
  {
    id: 'R-LIMIT-PRICE-CACHE',
    section: 'Limits',
    nature: ['time'],
    seed: [
      '| Price cache | single-item pricing cached 20 minutes; bulk pricing reuses stored rows updated within 5 minutes | pricing endpoints |',
    ],
  },
  {
    id: 'R-LIMIT-PRICE-LIST-CACHE',
    section: 'Limits',
    nature: ['time'],
    seed: [
      '| Price list cache | refreshed every 3 minutes; `update=1` forces refresh, limited to once per minute (per IP for the compact list) | `/public/price`, `/infos/prices/buyorderAndLowestSales` |',
    ],
  },
  {
    id: 'R-LIMIT-BULK-PRICING',
    section: 'Limits',
    nature: ['count'],
    seed: ['| Bulk pricing | max 100 item IDs | `GET /item/pricing/bulk` |'],
  },
  {
    id: 'R-LIMIT-LISTING-PAGE',
    section: 'Limits',
    nature: ['count'],
    seed: ['| Listing page size | default 10, capped by server configuration | `GET /item/listing/{item}` |'],
    partly:
      '"capped by server configuration": the seed states no cap; the document\'s `count` maximum is the one sent at and one past.',
  },
  {
    id: 'R-LIMIT-BUYORDER-AMOUNT',
    section: 'Limits',
    nature: ['count'],
    seed: ['| Buy order amount | create max 499999, update max 4999; value must be positive | buy order endpoints |'],
  },
  {
    id: 'R-LIMIT-BUYORDER-LISTING',
    section: 'Limits',
    nature: ['count'],
    seed: [
      '| Buy order listing | count default 10, max 1000; search term min 3 characters | `GET /user/getBuyorder` |',
    ],
  },
  {
    id: 'R-LIMIT-SET-PRICE',
    section: 'Limits',
    nature: ['count'],
    seed: [
      '| Set price | 1 to 5,000,000 cents; some items (over 400) have lower specific maxima | `POST /inventory/price` |',
    ],
  },
  {
    id: 'R-LIMIT-TRADE-HOLD',
    section: 'Limits',
    nature: ['time'],
    seed: ['| Trade hold | 7 days for game 730 items | listing |'],
  },
  {
    id: 'R-LIMIT-SELLER-FEE',
    section: 'Limits',
    nature: ['amount'],
    seed: ['| Seller fee on instant match | 5 percent | `POST /inventory/price` |'],
  },
  {
    id: 'R-LIMIT-HISTORY-PAGES',
    section: 'Limits',
    nature: ['order', 'count'],
    seed: [
      '| History page sizes | max 100 in one description and 50 in another (balance, purchase, sales, transaction history); cashout history max 50; session list max 50 | history endpoints |',
    ],
  },
  {
    id: 'R-LIMIT-SALES-DATA',
    section: 'Limits',
    nature: ['count'],
    seed: ['| Sales data | `limit` default 100, max 1000 | `/public/sales` |'],
  },
  {
    id: 'R-LIMIT-TOKEN-LIFETIME',
    section: 'Limits',
    nature: ['time'],
    seed: ['| Token lifetime | about 31 days | JWT |'],
  },
  {
    id: 'R-LIMIT-CASHOUT',
    section: 'Limits',
    nature: ['time', 'amount', 'count'],
    seed: [
      '| Cashout | minimum 5000 cents; fee 2 percent / 1.5 percent; one pending request at a time; 24 hours between requests | `POST /cashout/process` |',
    ],
  },
  {
    id: 'R-LIMIT-EMAIL-CHANGE',
    section: 'Limits',
    nature: ['time', 'count'],
    seed: ['| E-mail change | 1 request per 5 minutes; code valid 24 hours | e-mail change |'],
  },
  {
    id: 'R-LIMIT-2FA-RESET',
    section: 'Limits',
    nature: ['time'],
    seed: ['| 2FA reset | link valid 24 hours (second variant) | reset |'],
  },
  {
    id: 'R-LIMIT-SHORT-URL',
    section: 'Limits',
    nature: ['time', 'count'],
    seed: ['| Short URL | 3 to 20 characters; changeable once per month | `POST /user/updateShortUrl` |'],
  },
  {
    id: 'R-LIMIT-SUPPORT-MESSAGE',
    section: 'Limits',
    nature: ['count'],
    seed: ['| Support message | max 10,000 characters (admin 200,000) | support |'],
  },
  {
    id: 'R-LIMIT-GIVEAWAYS',
    section: 'Limits',
    nature: ['time', 'count'],
    seed: [
      '| Giveaways | 1 created per hour; max 50 items; min 100 participants public, 2 private; comment max 300 characters, 1 per 10 minutes; 10 comments per page | giveaways |',
    ],
  },
  {
    id: 'R-LIMIT-BODY',
    section: 'Limits',
    nature: ['count'],
    seed: [],
    document: [
      "Each operation reads at most a set number of body bytes (this document's limits; the seed shows none): its `x-body-limit` when it has one (the support routes carrying an attachment: 8,000,000 bytes), otherwise what its request schema admits: every string at its `maxLength` (or the longest its `pattern` admits), 9 bytes per character (a form-encoded `%E2%82%AC`), every array at its `maxItems`, plus 1,024 bytes.",
      'A body over its limit, nested deeper or with more parameters gets HTTP 300 `Invalid request body` without being read further (and the connection is closed).',
    ],
    partly:
      'The sentence counts strings and arrays only: what a server counts on top (names, numbers, separators) is open, so a body of its count is read and one of twice the most generous count plus 64 KiB refused; the `x-body-limit`s above 65,536 bytes (uploads of megabytes) are not sent.',
  },
  {
    id: 'R-LIMIT-ANONYMOUS-UPLOADS',
    section: 'Limits',
    nature: ['count'],
    seed: [],
    document: [
      "Callers without a JWT may have at most 32 bodies arriving at once per IP (a body counts until it has arrived in full or its request ends); a further one gets 429 (`Retry-After: 1`) until one of them has arrived (this document's limit).",
    ],
  },
  {
    id: 'R-LIMIT-HEADER-FIELDS',
    section: 'Limits',
    nature: ['count'],
    seed: [],
    document: [
      '431 `Request header fields too large` for headers over 16,384 bytes or more than 100 header fields',
      '- status: 431 message: Request header fields too large condition: headers over 16,384 bytes or more than 100 header fields',
    ],
    partly:
      'The 16,384 bytes are not sent at their boundary: which bytes of a request head count (its request line, the line ends) the document does not say; the 100 header fields are.',
  },
  {
    id: 'R-LIMIT-LOGIN-IP',
    section: 'Limits',
    nature: ['time', 'count'],
    seed: [],
    documentFile: 'paths/user_login.yaml',
    document: [
      'at most 20 attempts answered `Invalid API key` per IP in 5 minutes',
      "Beyond either, 429 with the rate-limit headers; an IP's window counts from its first refused key.",
      '- limit: 20 window: 300 scope: ip counts: attempts answered `Invalid API key` exceeded: reject',
    ],
  },
  {
    id: 'R-LIMIT-LOGIN-KEY',
    section: 'Limits',
    nature: ['time', 'count'],
    seed: [],
    documentFile: 'paths/user_login.yaml',
    document: [
      'at most 30 attempts with one API key in 5 minutes, whatever their outcome.',
      'Beyond either, 429 with the rate-limit headers;',
      '- limit: 30 window: 300 scope: apiKey counts: every attempt with this API key exceeded: reject',
    ],
    partly:
      "Where a key's window starts the document does not say (an IP's counts from its first refused key): the window's end is checked to come at most its 300 seconds after the key's first attempt, and the exact second at the end the target names.",
  },
  {
    id: 'R-LIMIT-ADMIN-BAN',
    section: 'Limits',
    nature: ['count'],
    seed: [],
    documentFile: 'paths/admin_ban.yaml',
    document: [
      "`reason` (1 to 500 characters) is recorded in the user's ban history (`GET /admin/banList`).",
      "condition: time not an integer, negative, or above 3,153,600,000 seconds (100 years, this document's limit)",
      'message: Invalid reason parameter condition: reason longer than 500 characters',
    ],
  },
  {
    id: 'R-LIMIT-2FA-RESET-REASON',
    section: 'Limits',
    nature: ['count'],
    seed: [],
    documentFile: 'paths/user_reset2FA_ask.yaml',
    document: [
      'the second takes an optional `reason` (at most 500 characters here)',
      'message: Invalid reason parameter condition: reason not a string, or longer than 500 characters',
    ],
  },
  {
    id: 'R-AUTH-PERMISSIONS',
    section: 'Authentication',
    seed: [
      '| Connected + API | Requires `Authorization: Bearer <JWT>` obtained from `POST /user/login`. |',
      '| API only | No user session and no Bearer token required. |',
      '| Connected + API + 2FA | As Connected + API; the route carries the 2FA filter, which an API JWT satisfies automatically. |',
      '| admin | Connected and the account is an administrator. Admin callers may also address other users through an extra `{userid}` path segment or parameter; those variants are not detailed. |',
      '| None | No authentication. |',
    ],
  },
  {
    id: 'R-AUTH-LOGIN',
    section: 'Authentication',
    seed: [
      'Send `POST /user/login` with `apiKey` (`<API_KEY>`, from the account settings), as JSON or form-urlencoded.',
      'On success the response is `content.jwt` = `<JWT>` (no `data` wrapper).',
      'Send `Authorization: Bearer <JWT>` on every Connected + API route.',
    ],
  },
  {
    id: 'R-AUTH-CLAIMS',
    section: 'Authentication',
    seed: [
      '| iss | string | always `API` |',
      '| sub | string | user platform ID |',
      '| exp | number | expiry (Unix), about 31 days after issue |',
      '| iat | number | issued-at (Unix) |',
      '| jti | string | token ID |',
      '| ip | string | client IP at login |',
      '| proxy | boolean | proxy context |',
      '| API | boolean | always true for this flow |',
      '| country | string | ISO country code |',
      '| steamid | string | platform user ID in backend format |',
      '| roles, rolesHash | | role data |',
    ],
    partly: 'The contents of `roles` and `rolesHash` are not shown; the other claims are checked.',
  },
  {
    id: 'R-AUTH-IP',
    section: 'Authentication',
    seed: ['The JWT is bound to the client IP used at login; a different IP may fail authentication.'],
  },
  {
    id: 'R-AUTH-LOGIN-ERRORS',
    section: 'Authentication',
    seed: [
      'Login fails with `Invalid API key` (403) or `Country blocked` (403); a missing `apiKey` gives `Missing required parameter: apiKey`.',
    ],
  },
  {
    id: 'R-AUTH-API-ONLY',
    section: 'Authentication',
    seed: [
      'Routes with only the `api` filter (for example item details, listing counts, `GET /user/store/{identifier}`) work without a user JWT.',
    ],
  },
  {
    id: 'R-AUTH-2FA',
    section: 'Authentication',
    seed: [
      "Routes with the 2FA filter accept an API JWT without any 2FA header; with a web session the website's 2FA rules apply.",
    ],
    partly: 'Web sessions are outside the API: only the API JWT side is checked.',
  },
  {
    id: 'R-AUTH-2FA-WINDOW',
    section: 'Authentication',
    seed: [
      '2FA validation for sensitive operations (e-mail change, cashout, API key generation) lasts for the current session or one hour, whichever is shorter.',
    ],
    unchecked:
      'It concerns web sessions: an API JWT satisfies the 2FA filter at any time (R-AUTH-2FA), and API key generation is not an operation of the seed.',
  },
  { id: 'R-AUTH-ADMIN', section: 'Authentication', seed: ['Admin routes require an administrator account.'] },
  { id: 'R-AUTH-EXPIRY', section: 'Authentication', nature: ['time'], seed: ['When the JWT expires, log in again.'] },
  {
    id: 'R-EVENT-MAIL-KINDS',
    section: 'Events',
    seed: [
      'The service sends e-mail notifications of these kinds, each switchable per user: `tradeCompleted`, `offerReceived`, `buyOrderFilled`, `itemSold`, `depositCompleted`, `marketing`.',
    ],
    partly:
      'Which operation triggers which kind is not shown, so no exact mapping can be demanded: depositCompleted, itemSold and buyOrderFilled are checked on the events their names settle (sent, fewer with the kind off), tradeCompleted and offerReceived on one of the trades or bot offers they may name, and `marketing`, which no operation of the seed is, not at all.',
  },
  {
    id: 'R-EVENT-MAIL-SWITCH-ALL',
    section: 'Events',
    seed: ['All e-mail notifications can be switched on or off together (`POST /user/setMailNotificationStatus`).'],
  },
  { id: 'R-EVENT-CASHOUT-MAIL', section: 'Events', seed: ['Cashout requests also produce e-mails at each stage.'] },
  {
    id: 'R-EVENT-BUYORDER-FILLED',
    section: 'Events',
    seed: ['A buy order that is filled produces a notification to its owner.'],
  },
  {
    id: 'R-EVENT-NOTIFICATIONS',
    section: 'Events',
    seed: [
      'Unread alerts, payment reviews, messages, offers and trades are readable through `GET /user/notifications`.',
    ],
  },
  {
    id: 'R-EVENT-MODERATION',
    section: 'Events',
    seed: [
      '`POST /admin/ban` and `POST /admin/support/post` each send a message to an internal moderation chat channel.',
    ],
  },
];

const byId = new Map(RULES.map((r) => [r.id, r]));

/**
 * The sides a rule of each nature needs checked (rule.ts `Side`). The document's "Conventions"
 * settle the exact second of every period (over at t + N), so a time needs it too unless the rule
 * says why it is open (`openAt`). A count is served at its number and refused one past it.
 */
export const NEEDED_SIDES: Record<Nature, string[]> = {
  time: ['before', 'at', 'after'],
  order: ['order'],
  amount: ['floor ≠ round', 'round ≠ ceil'],
  count: ['at the limit', 'past the limit'],
};

/** The rules of a time, order, amount or count nature whose row lacks a side its nature needs: `R-X (time: after)`. */
export function missingSides(rows: RuleRow[]): string[] {
  return rows.flatMap((row) => {
    const lacking = (row.rule.nature ?? []).flatMap((n) =>
      NEEDED_SIDES[n]
        .filter((side) => !row.sides.includes(side) && !(n === 'time' && side === 'at' && row.rule.openAt))
        .map((side) => `${n}: ${side}`),
    );
    return lacking.length ? [`${row.rule.id} (${lacking.join(', ')})`] : [];
  });
}

/** The rule with this ID, if the list has it. */
export const ruleById = (id: string): Rule | undefined => byId.get(id);

const TAGS = /\[(R-[A-Z0-9-]+(?:,\s*R-[A-Z0-9-]+)*)\]/g;

/** The rule IDs a test names in its title (`[R-A, R-B]`, anywhere in the name). */
export function rulesOf(testName: string): string[] {
  return [...testName.matchAll(TAGS)].flatMap((m) => m[1]!.split(/,\s*/));
}

/** The tag naming `ids` in a test title: `[R-A, R-B]`. */
export const rules = (...ids: string[]): string => `[${ids.join(', ')}]`;

export type RuleState = 'checked' | 'failed' | 'not run' | 'unchecked';

export interface RuleRow {
  rule: Rule;
  tests: { name: string; state: 'passed' | 'failed' | 'skipped' }[];
  /** checked: a test passed and none failed; failed: a test failed; not run: every test naming it was skipped. */
  state: RuleState;
  /** The sides of the rule passing tests check (before, at, after, order, pages, rounding: rule.ts `Side`). */
  sides: string[];
}

/**
 * The rule matrix of a run: each rule with the tests that name it and what became of them. A test
 * names rules in its title or in its options (`rule(...)` of rule.ts, carried as `rules`).
 */
export function ruleMatrix(
  outcomes: { name: string; state: 'passed' | 'failed' | 'skipped'; rules?: string[]; sides?: string[] }[],
): RuleRow[] {
  const tests = new Map<string, RuleRow['tests']>();
  const sides = new Map<string, Set<string>>();
  for (const o of outcomes)
    for (const id of new Set([...(o.rules ?? []), ...rulesOf(o.name)])) {
      if (!tests.has(id)) tests.set(id, []);
      tests.get(id)!.push({ name: o.name, state: o.state });
      if (o.state === 'passed') for (const s of o.sides ?? []) sides.set(id, (sides.get(id) ?? new Set()).add(s));
    }
  return RULES.map((r) => {
    const mine = tests.get(r.id) ?? [];
    const state: RuleState = mine.some((t) => t.state === 'failed')
      ? 'failed'
      : mine.some((t) => t.state === 'passed')
        ? 'checked'
        : mine.length
          ? 'not run'
          : 'unchecked';
    return { rule: r, tests: mine, state, sides: [...(sides.get(r.id) ?? [])] };
  });
}
