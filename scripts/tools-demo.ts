// The demo world's identifiers (packages/server/src/demo-data.ts: what `npm start`, `npm run
// sandbox` and `startSandbox({ demo: true })` hold) that the collections send in place of the
// document's examples, which name rows no server has (item 5021). Run in order against a fresh demo
// sandbox, as Alice with `{{adminApiKey}}` for the admin operations, each of these requests gets its
// operation's success answer; scripts/pack-collections.test.ts runs them so and fails when the demo
// data moves away from them. The requests the demo world cannot answer with a success from the
// public API alone are in DEMO_REFUSED, with the reason.

const ALICE = '76561198000000001';
const CAROL = '76561198000000004';
const GIVEAWAY = 'de0000000001'; // Bob's, which Alice joined and commented on
const TICKET = 1; // Alice's, answered by an admin

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
  getUserStoreIdentifier: { url: '/user/store/alice-store' },
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
  // Alice has provider_a linked and a pending cashout (2).
  postCashoutCancel: { body: { cashoutId: 2 } },
  postCashoutLink: { body: { method: 'provider_b', email: 'alice@example.com' } },
  getUserDisconnectSessionId: { url: '/user/disconnectSession/1' }, // the collection's login is session 1
};

/** Operations run just before another (operationId → the one it precedes): what the first leaves in place blocks the second. */
export const RUN_BEFORE: Record<string, string> = {
  postCashoutCancel: 'postCashoutProcess', // Alice's pending cashout blocks unlinking a method
  postGiveawaysLeaveUrl: 'postGiveawaysJoinUrl', // Alice is in the demo giveaway already
};

/** The requests that answer a documented refusal on a fresh demo sandbox, and why. */
export const DEMO_REFUSED: Record<string, string> = {
  postDepositTrade: "the platform holds nothing of Alice's to deposit (a test helper sets it)",
  getDepositTradeStatusTradeid: 'no deposit trade exists',
  postInstantsellTrade: "the platform holds nothing of Alice's to sell (a test helper sets it)",
  postUserClosePaymentAlert: 'Alice has no payment alert',
  postUserEmailChangeValidate: 'the code is in the e-mail the change request sends',
  postUser2FAValidate: 'the code comes from an authenticator app (TOTP)',
  postUserReset2FAAsk: '2FA is not active without the code of the app',
  postUserReset2FAValidate: '2FA is not active without the code of the app',
  postAdminRevertTradeTrade: 'no trade has failed',
  postCashoutProcess: "Alice's last cashout was asked an hour ago: the cooldown refuses a new one",
};
