// The shape of every record the engine stores, as TypeBox schemas: the store checks each record of
// a snapshot, of every journal line and of every database row against them when it loads (ADR 0010),
// so a damaged or foreign file is refused instead of feeding the engine records it would trip over
// later. The records the document does not describe (users, sessions, ledger entries, sales,
// trades, ...) and the store's meta are defined once, as schemas in the engine (domain/state.ts,
// domain/records.ts), and their types come from them. The three records whose type is the
// document's (items, assets, buy orders) have their load schema here, tied to the type by a check
// at the bottom: whatever the engine writes fits.
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Count, Int, Nullable, StoredRecord, Str, Time } from '../domain/record-fields.ts';
import {
  Ban,
  CartRow,
  Cashout,
  CodeRequest,
  Giveaway,
  GiveawayComment,
  Notification,
  Ticket,
  TicketMessage,
  Trade,
  TwoFactor,
} from '../domain/records.ts';
import {
  ApiKey,
  type Asset,
  type BuyOrder,
  type CollectionName,
  FreeRecord,
  type Item,
  Jti,
  LedgerEntry,
  Sale,
  Session,
  StateMeta,
  StoredUser,
} from '../domain/state.ts';

export const ItemRecord = StoredRecord({ id: Int, name: Str, game: Int, deal: Int, maxPrice: Nullable(Int) });

export const AssetRecord = StoredRecord({
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

export const BuyOrderRecord = StoredRecord({
  id: Int,
  platformid: Str,
  itemid: Int,
  price: Int,
  amount: Int,
  timestamp: Str,
});

/** The schema of each collection's records as a store holds them (users before `upgradeState`). */
export const RECORD_SCHEMAS = {
  users: StoredUser,
  apiKeys: ApiKey,
  sessions: Session,
  jtis: Jti,
  items: ItemRecord,
  assets: AssetRecord,
  buyOrders: BuyOrderRecord,
  sales: Sale,
  ledger: LedgerEntry,
  cartRows: CartRow,
  trades: Trade,
  cashouts: Cashout,
  notifications: Notification,
  tickets: Ticket,
  ticketMessages: TicketMessage,
  giveaways: Giveaway,
  giveawayComments: GiveawayComment,
  bans: Ban,
  codeRequests: CodeRequest,
  twoFactor: TwoFactor,
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

const meta = Compile(StateMeta);
/** A counter's value: the schema of `StateMeta.counters`' values. */
const counter = Compile(Count);
const fees = Compile(StateMeta.properties.feesCollected);

/**
 * Why `value` is not the store's meta (seq, counters, feesCollected), or undefined: the first
 * failing field and the rule it breaks.
 */
export function metaProblem(value: unknown): string | undefined {
  if (meta.Check(value)) return undefined;
  const [first] = meta.Errors(value);
  if (!first) return 'the meta is of the wrong shape';
  const missing = (first.params as { requiredProperties?: string[] }).requiredProperties?.[0];
  return missing ? `${missing} is missing` : `${first.instancePath.slice(1).replace('/', '.')} ${first.message}`;
}

/** Whether `value` may be a collection's counter (a count). */
export const isCounter = (value: unknown): boolean => counter.Check(value);
/** Whether `value` may be the fees collected (integer cents). */
export const isFeesCollected = (value: unknown): boolean => fees.Check(value);

// Compile-time ties between the document's record types and their load schemas: every record the
// engine can write satisfies its schema.
type Fits<Engine, Schema extends TSchema> = Engine extends Static<Schema> ? true : never;
export const DOCUMENT_RECORDS_FIT_SCHEMAS: {
  items: Fits<Item, typeof ItemRecord>;
  assets: Fits<Asset, typeof AssetRecord>;
  buyOrders: Fits<BuyOrder, typeof BuyOrderRecord>;
} = { items: true, assets: true, buyOrders: true };
