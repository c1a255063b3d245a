// The demo catalogue (demo-data.ts): real-looking items of the four market games and two
// community items of game 753, with the quality, type, rarity, colour and external price
// (`deal`, cents) a price list needs. IDs follow the order of this table, from 1.
import type { Item } from './domain/state.ts';

export type DemoItem = Pick<Item, 'name' | 'game' | 'quality' | 'type' | 'rarity' | 'deal' | 'color'> &
  Partial<Pick<Item, 'effect' | 'craftable' | 'exterior' | 'hero' | 'weapon' | 'slot' | 'featured'>>;

const tf2 = (name: string, quality: string, type: string, deal: number, color: string, more: Partial<DemoItem> = {}) =>
  ({ name, game: 440, quality, type, rarity: '', deal, color, ...more }) satisfies DemoItem;
const cs = (name: string, rarity: string, type: string, deal: number, color: string, exterior = '') =>
  ({
    name,
    game: 730,
    quality: name.startsWith('StatTrak') ? 'StatTrak™' : 'Normal',
    type,
    rarity,
    deal,
    color,
    exterior,
  }) satisfies DemoItem;
const dota = (name: string, rarity: string, hero: string, deal: number, color: string, quality = 'Standard') =>
  ({ name, game: 570, quality, type: 'Wearable', rarity, deal, color, hero }) satisfies DemoItem;
const rust = (name: string, type: string, deal: number) =>
  ({ name, game: 252490, quality: '', type, rarity: '', deal, color: 'CE422B' }) satisfies DemoItem;

export const DEMO_CATALOG: DemoItem[] = [
  tf2('Mann Co. Supply Crate Key', 'Unique', 'Tool', 214, 'FFD700', { featured: 1, slot: 'action' }),
  tf2('Refined Metal', 'Unique', 'Craft Item', 7, 'FFD700'),
  tf2('Tour of Duty Ticket', 'Unique', 'Tool', 95, 'FFD700'),
  tf2('Strange Rocket Launcher', 'Strange', 'Primary weapon', 45, 'CF6A32', { weapon: 'Rocket Launcher' }),
  tf2('Professional Killstreak Australium Scattergun', 'Strange', 'Primary weapon', 14_500, 'CF6A32', {
    weapon: 'Scattergun',
  }),
  tf2('Burning Flames Team Captain', 'Unusual', 'Cosmetic', 210_000, '8650AC', { effect: 'Burning Flames' }),
  tf2('Sunbeams Killer Exclusive', 'Unusual', 'Cosmetic', 52_000, '8650AC', { effect: 'Sunbeams' }),
  tf2('Vintage Tyrolean', 'Vintage', 'Cosmetic', 380, '476291'),
  tf2("Genuine Bill's Hat", 'Genuine', 'Cosmetic', 1_200, '4D7455'),
  tf2('Earbuds', 'Unique', 'Cosmetic', 5_200, 'FFD700', { featured: 1 }),
  tf2("Max's Severed Head", 'Unique', 'Cosmetic', 2_800, 'FFD700'),
  tf2('Strange Festivized Minigun', 'Strange', 'Primary weapon', 620, 'CF6A32', { weapon: 'Minigun' }),
  tf2('Taunt: The Conga', 'Unique', 'Taunt', 1_450, 'FFD700', { craftable: 0 }),
  cs('AK-47 | Redline (Field-Tested)', 'Classified', 'Rifle', 1_850, 'D32CE6', 'Field-Tested'),
  cs('StatTrak™ AK-47 | Redline (Field-Tested)', 'Classified', 'Rifle', 4_200, 'D32CE6', 'Field-Tested'),
  cs('AWP | Asiimov (Field-Tested)', 'Covert', 'Sniper Rifle', 9_800, 'EB4B4B', 'Field-Tested'),
  cs('M4A4 | Howl (Minimal Wear)', 'Contraband', 'Rifle', 520_000, 'E4AE39', 'Minimal Wear'),
  cs('★ Karambit | Doppler (Factory New)', 'Covert', 'Knife', 98_000, 'EB4B4B', 'Factory New'),
  cs('Glock-18 | Fade (Factory New)', 'Restricted', 'Pistol', 145_000, '8847FF', 'Factory New'),
  cs('USP-S | Kill Confirmed (Minimal Wear)', 'Covert', 'Pistol', 8_900, 'EB4B4B', 'Minimal Wear'),
  cs('Desert Eagle | Blaze (Factory New)', 'Restricted', 'Pistol', 52_000, '8847FF', 'Factory New'),
  cs('AK-47 | Vulcan (Field-Tested)', 'Covert', 'Rifle', 14_500, 'EB4B4B', 'Field-Tested'),
  cs('M4A1-S | Hyper Beast (Field-Tested)', 'Covert', 'Rifle', 2_100, 'EB4B4B', 'Field-Tested'),
  cs('Operation Breakout Weapon Case', 'Base Grade', 'Container', 520, 'B0C3D9'),
  cs('Sticker | Natus Vincere (Holo) | Stockholm 2021', 'Exotic', 'Sticker', 1_450, 'D32CE6'),
  dota('Dragonclaw Hook', 'Immortal', 'Pudge', 48_000, 'E4AE39'),
  dota('Manifold Paradox', 'Arcana', 'Phantom Assassin', 2_900, 'ADE55C'),
  dota('Fiery Soul of the Slayer', 'Arcana', 'Lina', 2_400, 'ADE55C'),
  dota('Blades of Voth Domosh', 'Arcana', 'Legion Commander', 2_600, 'ADE55C'),
  dota('Genuine Timebreaker', 'Immortal', 'Faceless Void', 8_200, 'E4AE39', 'Genuine'),
  dota('Inscribed Golden Gravelmaw', 'Immortal', 'Earthshaker', 3_300, 'E4AE39', 'Inscribed'),
  dota('Exalted Feast of Abscession', 'Immortal', 'Pudge', 1_900, 'E4AE39', 'Exalted'),
  dota('Treasure of the Cryptic Beacon', 'Rare', 'Treasure', 450, '4B69FF'),
  dota('Golden Moonfall', 'Immortal', 'Luna', 12_000, 'E4AE39'),
  rust('Tempered AK47', 'Weapon skin', 5_400),
  rust('Alien Red', 'Weapon skin', 1_900),
  rust('Big Grin', 'Facemask', 26_000),
  rust('Glory AK47', 'Weapon skin', 3_800),
  rust('Punishment Mask', 'Facemask', 9_800),
  rust('Blackout Hoodie', 'Hoodie', 2_400),
  rust('Whiteout Facemask', 'Facemask', 4_500),
  rust('Tempered MP5', 'Weapon skin', 1_200),
  {
    name: 'Winter Sale 2023 Trading Card',
    game: 753,
    quality: '',
    type: 'Trading Card',
    rarity: '',
    deal: 9,
    color: '',
  },
  { name: 'Sack of Gems', game: 753, quality: '', type: 'Gems', rarity: '', deal: 42, color: '' },
];
