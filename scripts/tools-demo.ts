// The demo world's identifiers (packages/server/src/demo-data.ts: what `npm start`, `npm run
// sandbox` and `startSandbox({ demo: true })` hold) that the collections send in place of the
// document's examples, which name rows no server has (item 5021). Run in order against a fresh demo
// sandbox, as Alice with `{{adminApiKey}}` for the admin operations, every request gets its
// operation's success answer; scripts/pack-collections.test.ts runs them so and fails when the demo
// data moves away from them. What is per server or secret (deposit keys, mailed and TOTP codes)
// the requests' scripts fetch as they run (tools-flows.ts).
import { NEW_EMAIL } from './tools-flows.ts';

const ALICE = '76561198000000001';
const CAROL = '76561198000000004';
const GIVEAWAY = 'de0000000001'; // Bob's, which Alice joined and commented on
const TICKET = 1; // Alice's, answered by an admin
// Deposit keys are per server and user: the document's example keys stand in, and the requests'
// pre-request scripts put the server's in (tools-flows.ts).
const EXAMPLE_KEYS = {
  '11234567890': '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  '11234567900': '60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752',
};

/** The URL (path and query) and body an operation's request sends in the collections, by operationId. */
export const DEMO_REQUESTS: Record<string, { url?: string; body?: unknown }> = {
  getItemDetailsItem: { url: '/item/details/1' },
  getItemPricingBulk: { url: '/item/pricing/bulk?items=1%2C2' },
  getItemDetailsFromidBackpackid: { url: '/item/details/fromid/10000000006' }, // a listing of item 2 (game 440)
  getItemCsDetailsFromidBackpackid: { url: '/item/cs/details/fromid/10000000070' }, // a listing of item 14 (game 730)
  // Alice has no order on item 3 (Tour of Duty Ticket), as in the README's quick start.
  postItemBuyorder: { body: { itemid: 3, value: 90, amount: 2 } },
  postItemBuyorderUpdate: { body: { itemid: 3, value: 92, amount: 3 } },
  postItemBuyorderRemove: { body: { itemid: 3 } },
  postCartAdd: { body: { assetId: '10000000006' } },
  postCartBulk: { body: { itemId: 2, count: 2 } },
  postCartRemove: { body: { cartId: 1 } },
  // Alice's two assets in her inventory (state 0), both of game 730.
  postInventoryPrice: { body: { ids: '10000000075', price: 2500 } },
  postInventoryWithdraw: { body: { ids: '10000000133' } },
  // Alice's platform inventory (DEMO_PLATFORM_INVENTORY): she deposits her Team Captain and sells a key instantly.
  postDepositTrade: {
    body: { value: { '11234567890': 212_500 }, depositKeys: { '11234567890': EXAMPLE_KEYS['11234567890'] }, game: 440 },
  },
  getDepositTradeStatusTradeid: { url: '/deposit/tradeStatus/2' }, // her deposit of Earbuds, completed
  postInstantsellTrade: {
    body: {
      prices: { '11234567900': 190 },
      depositKeys: { '11234567900': EXAMPLE_KEYS['11234567900'] },
      game: 440,
      method: 'balance',
    },
  },
  getUserStoreIdentifier: { url: '/user/store/alice-store' },
  postUserClosePaymentAlert: { body: { id: 1 } }, // the review of her completed cashout
  postUserEmailChangeRequest: { body: { email: NEW_EMAIL } },
  postAdminRevertTradeTrade: { url: '/admin/revertTrade/3' }, // Bob's withdrawal, failed on the platform
  getUserGetTransactionDetails: { url: '/user/getTransactionDetails?transactionId=cashout-1' },
  getSupportMessagesTicket: { url: `/support/messages/${TICKET}` },
  postSupportPost: { body: { content: 'Here is the trade offer ID you asked for.', ticket: TICKET } },
  getAdminSupportMessagesTicketUser: { url: `/admin/support/messages/${TICKET}/${ALICE}` },
  postAdminSupportPost: {
    body: { content: 'The trade was resent; please check your offers.', ticket: TICKET, user: ALICE },
  },
  postAdminSupportStatus: { body: { ticket: TICKET, status: 2, user: ALICE } },
  postAdminSupportBlock: { body: { user: CAROL, status: 1 } },
  getGiveawaysDetailsUrl: { url: `/giveaways/details/${GIVEAWAY}` },
  getGiveawaysCommentsUrl: { url: `/giveaways/comments/${GIVEAWAY}` },
  getGiveawaysIsInUrl: { url: `/giveaways/isIn/${GIVEAWAY}` },
  postGiveawaysLeaveUrl: { url: `/giveaways/leave/${GIVEAWAY}` },
  postGiveawaysJoinUrl: { url: `/giveaways/join/${GIVEAWAY}` },
  postGiveawaysComment: { body: { url: GIVEAWAY, comment: 'Thanks for the giveaway!' } },
  postGiveawaysDeleteCommentId: { url: '/giveaways/deleteComment/1' }, // Alice's comment
  postGiveawaysCreate: {
    body: {
      name: 'Weekend giveaway',
      maxEntries: 500,
      type: 0,
      descriptionBefore: 'Join for a chance to win a Strange Rocket Launcher!',
      descriptionAfter: 'Good luck!',
      duration: 86400,
      items: ['10000000018'], // one of Alice's listings
      chatVerification: false,
    },
  },
  // Alice has provider_a linked and a pending cashout (2), asked two days ago (past the cooldown).
  postCashoutCancel: { body: { cashoutId: 2 } },
  postCashoutProcess: { body: { amount: 10_000, method: 'provider_a' } },
  postCashoutLink: { body: { method: 'provider_b', email: 'alice@example.com' } },
  getUserDisconnectSessionId: { url: '/user/disconnectSession/1' }, // the collection's login is session 1
};

/**
 * Operations run just before another (operationId → the one it precedes), applied in this order:
 * what the first leaves in place blocks the second. The cashout steps run as one flow: link a
 * method, cancel the pending cashout, unlink the method (no open cashout may remain), ask a new one.
 */
export const RUN_BEFORE: Record<string, string> = {
  postCashoutCancel: 'postCashoutProcess', // Alice's pending cashout blocks a new one
  postCashoutLink: 'postCashoutCancel',
  postCashoutUnlink: 'postCashoutProcess', // an open cashout blocks unlinking a method
  postGiveawaysLeaveUrl: 'postGiveawaysJoinUrl', // Alice is in the demo giveaway already
};
