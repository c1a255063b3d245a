// What a request of the collections takes from somewhere else than its file, so that a run against
// a fresh demo sandbox answers a success where the value is per server or secret by design: a
// value the previous request of a flow answers is kept by that request's test script (KEEPS: the
// 2FA key and secret of create, the reset's request ID), and a value from elsewhere is filled into
// the body by the request's pre-request script (FILLS: the deposit keys of the deposit list, the
// code of an e-mail from the test helpers' outbox, the authenticator app's TOTP code). The file
// keeps the document's example shape; the script only replaces values. Against the mock (no test
// helpers, example answers) a fill finds nothing to take and the example values are sent.
//
// The scripts run in Postman's sandbox and in Bruno's (QuickJS by default), so `apply` is plain
// ES5 that both run: `function (body, answer, vars)`, where `answer` is the JSON of the GET at
// `path` (undefined when it failed) and `vars(name)` reads a kept value. Both sandboxes give
// `require('crypto-js')`.

/** What the collections' descriptions say of the sandbox environment. */
export const SANDBOX_NOTE =
  "The sandbox environment is a demo server in test mode (`npx marketplace-server --demo --test-mode --db :memory:`, or a demo sandbox): the requests use its demo rows, the e-mail change and the 2FA reset read their codes from its test helpers' outbox, and `adminApiKey` is the admin key it prints.";

/** The address the e-mail change asks for (the body of postUserEmailChangeRequest). */
export const NEW_EMAIL = 'alice.new@example.com';
/** The backup address 2FA is activated with, where the reset code goes (postUser2FAValidate). */
export const BACKUP_EMAIL = 'alice.backup@example.com';

/** Values a request's test script keeps from its answer's `content` for a later request: variable → field. */
export const KEEPS: Record<string, Record<string, string>> = {
  getUser2FACreate: { twoFactorKey: 'key', twoFactorSecret: 'base32' },
  postUserReset2FAAsk: { twoFactorResetRequest: 'requestId' },
};

/** How a pre-request script fills a request's body. */
export interface Fill {
  /** Why, as the script's first comment. */
  why: string;
  /** A GET after `{{baseUrl}}` (sent with the caller's bearer) whose JSON answer `apply` reads. */
  path?: string;
  /** ES5 source of `function (body, answer, vars)`, which writes into `body`. */
  apply: string;
}

/** The newest outbox message of `kind` gives the body its `code`. */
const codeFromOutbox = (kind: string, more = '') => `function (body, answer, vars) {
  var messages = ((answer && answer.content) || {}).messages || [];
  var mail = messages.filter(function (m) { return m.kind === '${kind}'; }).pop();
  if (mail && mail.data && mail.data.code) body.code = String(mail.data.code);${more}
}`;

/** The body fills by operationId. */
export const FILLS: Record<string, Fill> = {
  postDepositTrade: {
    why: 'The deposit keys are per server and user: the deposit list (GET /deposit/440) gives them.',
    path: '/deposit/440',
    apply: `function (body, answer) {
  var keys = ((answer && answer.content) || {}).depositkey || {};
  Object.keys(body.value).forEach(function (id) {
    if (keys[id]) body.depositKeys[id] = keys[id];
  });
}`,
  },
  postInstantsellTrade: {
    why: 'The deposit keys and the instant prices come from the instant-sell list (GET /instantsell/440).',
    path: '/instantsell/440',
    apply: `function (body, answer) {
  var info = ((answer && answer.content) || {}).informations || {};
  (info.rows || []).forEach(function (row) {
    if (!(row.assetId in body.prices)) return;
    body.prices[row.assetId] = row.instantPrice;
    if (info.depositkey && info.depositkey[row.assetId]) body.depositKeys[row.assetId] = info.depositkey[row.assetId];
  });
}`,
  },
  postUserEmailChangeValidate: {
    why: `The code is mailed to ${NEW_EMAIL}; a sandboxed server (test mode) shows its mail in the test helpers' outbox.`,
    path: `/test_helpers/outbox?channel=email&to=${encodeURIComponent(NEW_EMAIL)}`,
    apply: codeFromOutbox('emailChange'),
  },
  postUser2FAValidate: {
    why: "The code of the authenticator app (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits) for the secret that create answered, with create's key.",
    apply: `function (body, answer, vars) {
  var secret = vars('twoFactorSecret');
  if (!secret) return;
  var CryptoJS = require('crypto-js');
  var alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  var bits = '';
  secret.toUpperCase().replace(/=+$/, '').split('').forEach(function (c) {
    bits += ('0000' + alphabet.indexOf(c).toString(2)).slice(-5);
  });
  var key = '';
  for (var i = 0; i + 8 <= bits.length; i += 8) key += ('0' + parseInt(bits.slice(i, i + 8), 2).toString(16)).slice(-2);
  var step = ('0000000000000000' + Math.floor(Date.now() / 30000).toString(16)).slice(-16);
  var mac = CryptoJS.HmacSHA1(CryptoJS.enc.Hex.parse(step), CryptoJS.enc.Hex.parse(key)).toString();
  var offset = parseInt(mac.slice(-1), 16);
  var code = (parseInt(mac.slice(offset * 2, offset * 2 + 8), 16) & 0x7fffffff) % 1000000;
  body.secret = vars('twoFactorKey');
  body.code = ('00000' + code).slice(-6);
}`,
  },
  postUserReset2FAValidate: {
    why: `The reset code is mailed to the backup address ${BACKUP_EMAIL} (the test helpers' outbox), for the request that ask answered.`,
    path: `/test_helpers/outbox?channel=email&to=${encodeURIComponent(BACKUP_EMAIL)}`,
    apply: codeFromOutbox(
      'twoFactorReset',
      "\n  var request = vars('twoFactorResetRequest');\n  if (request) body.requestId = Number(request);",
    ),
  },
};
