// The shape of every record the engine stores, as TypeBox schemas: the store checks each record of
// a snapshot and of every journal line against them when it loads (ADR 0010), so a damaged or
// foreign file is refused instead of feeding the engine records it would trip over later.
// Additional properties are allowed (a newer field is not damage) and account fields added over
// time (`accountDefaults`) are optional, because `upgradeState` fills them after loading. The type
// checks at the bottom tie each schema to the engine's own type: whatever the engine writes fits.
import Type, { type Static, type TProperties, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { CollectionName, Collections } from '../domain/state.ts';

const Int = Type.Integer();
const Str = Type.String();
const Bool = Type.Boolean();
/** Unix seconds. */
const Time = Type.Number();
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Record_ = <P extends TProperties>(properties: P) => Type.Object(properties, { additionalProperties: true });

export const UserRecord = Record_({
  platformId: Str,
  name: Str,
  image: Str,
  email: Str,
  balance: Int,
  reserved: Int,
  admin: Bool,
  country: Str,
  verified: Bool,
  tradeurl: Str,
  walletmail: Str,
  shorturl: Str,
  since: Time,
  lastactivity: Time,
  banUntil: Nullable(Time),
  twoFactorEnabled: Type.Optional(Bool),
  shorturlChangedAt: Type.Optional(Nullable(Time)),
  supportBlocked: Type.Optional(Bool),
  paymentMethods: Type.Optional(Type.Array(Str)),
  paymentLinks: Type.Optional(Type.Record(Str, Type.Object({ email: Str, linkedAt: Time }))),
  emailNotifications: Type.Optional(Bool),
  notifications: Type.Optional(Type.Record(Str, Bool)),
  privacy: Type.Optional(Type.Record(Str, Bool)),
});

export const ApiKeyRecord = Record_({ hash: Str, user: Str });

export const SessionRecord = Record_({
  id: Int,
  jti: Str,
  user: Str,
  ip: Str,
  location: Str,
  isp: Str,
  userAgent: Str,
  timestamp: Time,
  expire: Time,
  revoked: Bool,
});

export const JtiRecord = Record_({ jti: Str, session: Int });

export const ItemRecord = Record_({ id: Int, name: Str, game: Int, deal: Int, maxPrice: Nullable(Int) });

export const AssetRecord = Record_({
  id: Int,
  assetId: Str,
  item_id: Int,
  user: Str,
  ip: Str,
  state: Int,
  price: Nullable(Int),
  bot: Str,
  game: Int,
  lastupdate: Time,
  tradeHoldUntil: Nullable(Time),
});

export const BuyOrderRecord = Record_({
  id: Int,
  platformid: Str,
  itemid: Int,
  price: Int,
  amount: Int,
  timestamp: Str,
});

export const SaleRecord = Record_({
  id: Int,
  item_id: Int,
  assetId: Str,
  price: Int,
  fee: Int,
  seller: Str,
  buyer: Str,
  timestamp: Time,
});

export const LedgerRecord = Record_({
  id: Int,
  user: Str,
  type: Type.Union([
    Type.Literal('deposit'),
    Type.Literal('sale'),
    Type.Literal('purchase'),
    Type.Literal('payment'),
    Type.Literal('cashout'),
    Type.Literal('bonus'),
    Type.Literal('refund'),
    Type.Literal('fee'),
  ]),
  amount: Int,
  balance: Int,
  description: Str,
  timestamp: Str,
  relatedId: Int,
});

export const CartRowRecord = Record_({
  cartId: Int,
  user: Str,
  item_id: Int,
  price: Int,
  assetIds: Type.Array(Str),
  timestamp: Time,
});

export const TradeRecord = Record_({
  id: Int,
  tradeId: Str,
  kind: Type.Union([Type.Literal('deposit'), Type.Literal('withdraw'), Type.Literal('instant_sell')]),
  user: Str,
  game: Int,
  assetIds: Type.Array(Str),
  prices: Type.Record(Str, Int),
  payout: Nullable(Str),
  status: Int,
  created: Time,
  completedAt: Nullable(Time),
  assets: Type.Optional(
    Type.Array(Record_({ assetId: Str, itemId: Int, attributes: Type.Record(Str, Type.Unknown()) })),
  ),
  updated: Type.Optional(Time),
});

export const CashoutRecord = Record_({
  id: Int,
  user: Str,
  amount: Int,
  fee: Int,
  method: Str,
  email: Str,
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('processing'),
    Type.Literal('completed'),
    Type.Literal('failed'),
    Type.Literal('cancelled'),
  ]),
  transactionId: Str,
  requestedAt: Time,
  estimatedCompletionAt: Time,
  completedAt: Nullable(Time),
});

export const NotificationRecord = Record_({
  id: Int,
  user: Str,
  kind: Type.Union([
    Type.Literal('alert'),
    Type.Literal('paymentReview'),
    Type.Literal('message'),
    Type.Literal('offer'),
    Type.Literal('trade'),
  ]),
  text: Str,
  data: Type.Record(Str, Type.Unknown()),
  read: Bool,
  timestamp: Time,
});

export const TicketRecord = Record_({
  id: Int,
  ticket: Int,
  user: Str,
  subject: Str,
  topic: Str,
  concern: Str,
  status: Int,
  assigned: Nullable(Str),
  created: Time,
  last_message: Time,
});

export const TicketMessageRecord = Record_({
  id: Int,
  ticket: Int,
  user: Str,
  content: Str,
  admin: Nullable(Str),
  timestamp: Time,
  attachments: Str,
});

export const GiveawayRecord = Record_({
  id: Int,
  url: Str,
  owner: Str,
  name: Str,
  maxEntries: Int,
  type: Type.Union([Type.Literal(0), Type.Literal(1)]),
  descriptionBefore: Str,
  descriptionAfter: Str,
  requireChatVerification: Bool,
  assetIds: Type.Array(Int),
  participants: Type.Array(Record_({ user: Str, joined: Time })),
  created: Time,
  endsAt: Time,
  serverSeed: Str,
  ended: Bool,
  winner: Nullable(Str),
  winnerIndex: Nullable(Int),
});

export const GiveawayCommentRecord = Record_({ id: Int, giveaway: Int, user: Str, content: Str, timestamp: Time });

export const BanRecord = Record_({ id: Int, user: Str, admin: Str, reason: Str, time: Time, timestamp: Time });

export const CodeRequestRecord = Record_({
  id: Int,
  user: Str,
  purpose: Type.Union([Type.Literal('emailChange'), Type.Literal('twoFactorReset')]),
  email: Str,
  codeHash: Str,
  attempts: Int,
  created: Time,
  expires: Time,
  used: Bool,
});

export const TwoFactorRecord = Record_({
  user: Str,
  secret: Str,
  key: Str,
  backupEmail: Str,
  activatedAt: Nullable(Time),
});

export const FreeRecord = Record_({ id: Str, kind: Str });

/** The schema of each collection's records. */
export const RECORD_SCHEMAS = {
  users: UserRecord,
  apiKeys: ApiKeyRecord,
  sessions: SessionRecord,
  jtis: JtiRecord,
  items: ItemRecord,
  assets: AssetRecord,
  buyOrders: BuyOrderRecord,
  sales: SaleRecord,
  ledger: LedgerRecord,
  cartRows: CartRowRecord,
  trades: TradeRecord,
  cashouts: CashoutRecord,
  notifications: NotificationRecord,
  tickets: TicketRecord,
  ticketMessages: TicketMessageRecord,
  giveaways: GiveawayRecord,
  giveawayComments: GiveawayCommentRecord,
  bans: BanRecord,
  codeRequests: CodeRequestRecord,
  twoFactor: TwoFactorRecord,
  records: FreeRecord,
} satisfies Record<CollectionName, TSchema>;

const compiled = Object.fromEntries(
  Object.entries(RECORD_SCHEMAS).map(([c, schema]) => [c, Compile(schema as TSchema)]),
) as unknown as Record<CollectionName, ReturnType<typeof Compile>>;

/** Whether `c` names a collection the engine knows. */
export const isCollection = (c: unknown): c is CollectionName =>
  typeof c === 'string' && Object.hasOwn(RECORD_SCHEMAS, c);

/**
 * Why `row` is not a record of collection `c` (the first failing field and the rule it breaks,
 * never the value: the message goes to a log), or undefined when it is one.
 */
export function recordProblem(c: CollectionName, row: unknown): string | undefined {
  const check = compiled[c];
  if (check.Check(row)) return undefined;
  const [first] = check.Errors(row);
  return `a ${c} record ${first ? `${first.instancePath || '(the record)'} ${first.message}` : 'of the wrong shape'}`;
}

// Compile-time ties between the engine's record types and the schemas: every record the engine
// can write satisfies its schema. (The next step of issue 14 point 5 is the converse: declare the
// engine's types as `Static<...>` of these schemas.)
type Fits<Engine, Schema extends TSchema> = Engine extends Static<Schema> ? true : never;
type EveryCollectionFits = { [C in CollectionName]: Fits<Collections[C], (typeof RECORD_SCHEMAS)[C]> };
export const ENGINE_RECORDS_FIT_SCHEMAS: EveryCollectionFits = {
  users: true,
  apiKeys: true,
  sessions: true,
  jtis: true,
  items: true,
  assets: true,
  buyOrders: true,
  sales: true,
  ledger: true,
  cartRows: true,
  trades: true,
  cashouts: true,
  notifications: true,
  tickets: true,
  ticketMessages: true,
  giveaways: true,
  giveawayComments: true,
  bans: true,
  codeRequests: true,
  twoFactor: true,
  records: true,
};
