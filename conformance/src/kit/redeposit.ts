// An asset ID deposited again while the service still holds it: the one way the public routes and
// the test helpers give a user two records of one asset ID, which the rules that name an asset by
// its ID alone (POST /inventory/price, POST /cart/add) must then resolve to the record they admit.
import { content } from './behavior.ts';
import { helpers, sentOffer, type session } from './helpers.ts';
import { getAs, postAs } from './user-calls.ts';

type Me = Awaited<ReturnType<typeof session>>;

/** The price in cents the asset is deposited again at (an accepted deposit lists it at that price). */
export const REDEPOSIT_PRICE = 1500;

/**
 * A fresh asset of `owner` (an item of game 440) withdrawn, the withdrawal declined, and the same
 * asset ID deposited again and accepted: the owner then holds the held record (state 2, "held (not
 * sellable, not withdrawable) until POST /admin/revertTrade/{trade}", shared/test-helpers.md) and a
 * newer one listed at REDEPOSIT_PRICE. Answers the held asset as the assets helper stored it.
 */
export async function redeposited(owner: Me, itemId: number) {
  const asset = await helpers.asset({ owner: owner.platformId, itemId });
  const withdrawal = await postAs(owner, '/inventory/withdraw', { ids: asset.assetId });
  await helpers.settleOffer((await sentOffer(withdrawal, owner.platformId)).tradeId, 'decline');
  await helpers.platformInventory({
    platformId: owner.platformId,
    game: 440,
    assets: [{ assetId: asset.assetId, itemId }],
  });
  const list = await getAs(owner, '/deposit/440');
  const deposit = await postAs(owner, '/deposit/trade', {
    value: { [asset.assetId]: REDEPOSIT_PRICE },
    depositKeys: content(list).depositkey,
  });
  await helpers.settleOffer((await sentOffer(deposit, owner.platformId)).tradeId, 'accept');
  return asset;
}
