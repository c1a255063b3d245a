// Whose avatar an answer shows. The document gives every user an avatar URL (`GET /user/infos`
// `image`) and shows it wherever a person appears (a store, a giveaway's creator, winner and
// participants, a comment's author, a conversation's other side, a sale's buyer). A field that
// reads the caller's avatar, or another participant's, only gives another value where the people
// involved have avatars of their own: a target that gives them one default avatar leaves nothing to
// tell apart, and the test ends as a skip saying so.
import type { TestContext } from 'vitest';
import { content, getOk } from './behavior.ts';
import { skip } from './skip.ts';

interface Person {
  platformId: string;
  token: string;
  ip: string;
}

/**
 * Each person's avatar as their own `GET /user/infos` shows it, keyed by platform ID; skips the
 * test when two of them share one (nothing could then tell whose avatar an answer shows).
 */
export async function avatarsOf(ctx: TestContext, people: Person[]): Promise<Map<string, string>> {
  const avatars = new Map<string, string>();
  for (const p of people)
    avatars.set(p.platformId, content(await getOk('/user/infos', {}, p.token, p.ip)).informations.image);
  if (new Set(avatars.values()).size < people.length)
    skip(
      ctx,
      `the target gives these ${people.length} users one avatar (GET /user/infos image: ${[...new Set(avatars.values())].join(', ')}), so no answer can tell whose avatar it shows`,
    );
  return avatars;
}
