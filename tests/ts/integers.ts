// Type-checked by `tsc --noEmit --strict -p tests/ts`, never run: with `integers: "bigint"`
// the integers the core declares may exceed 2^53 (microblog `profile.user_id`) are always a
// `bigint`, with "string" a number or (beyond 2^53) their digits
// (tests/js/exact_integers.test.mjs checks the values); every other number stays a `number`, so arithmetic on counts compiles. Each
// `@ts-expect-error` line must fail to compile. (Strict clients: their data is typed.)
import { Client, stringify } from '../../pkg/serpkit.js';
import type { ClientOptions, IntegersMode, LargeInteger, MicroblogPost, Profile, RelatedKeyword, ResponseOf } from '../../pkg/serpkit.js';

/** `true` only when `A` and `B` are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export const declared: [
  Same<Profile<'bigint'>['user_id'], bigint>,
  Same<Profile<'string'>['user_id'], number | string>,
  Same<Profile<IntegersMode>['user_id'], number | bigint | string>,
  Same<Profile['user_id'], number>,
  Same<LargeInteger<'number'>, number>,
  Same<MicroblogPost<'bigint'>['likes'], number>,
  Same<ResponseOf<'related', 'bigint'>, RelatedKeyword[]>,
  Same<ResponseOf<'/v1/microblog/post', 'string'>, MicroblogPost<'string'>[]>,
] = [true, true, true, true, true, true, true, true];

export async function bigints(): Promise<void> {
  const big = new Client({ key: 'k', integers: 'bigint', validation: 'strict' });
  const post = (await big.microblogPost({ keyword: 'a' })).data[0];
  if (post === undefined) return;
  // Counts are numbers in every mode.
  const likes: number = post.likes + 1;
  const views: number = ((await big.videoVideo({ keyword: 'a' })).data[0]?.views ?? 0) + 1;
  const volume: number = ((await big.call('/v1/related', { keyword: 'a', ccode: 'US' })).data[0]?.search_volume ?? 0) * 2;
  const chunked = await big.searchVolumeBulkChunked({ keywords: ['a'], ccode: 'US' });
  const monthly: number = ((chunked.ok ? chunked.data[0]?.TARGETED_MONTHLY_SEARCHES[0]?.value : 0) ?? 0) + 1;
  // The id is a bigint, whatever its size.
  const id: bigint = post.profile.user_id + 1n;
  void [likes, views, volume, monthly, id];
  // @ts-expect-error under "bigint" an id is a bigint, never a number
  const asNumber: number | string = post.profile.user_id;
  // @ts-expect-error nor is it ever a string
  const asString: string | number = post.profile.user_id;
  void [asNumber, asString];
}

export async function digitStrings(): Promise<void> {
  const strings = new Client({ key: 'k', integers: 'string', validation: 'strict' });
  const post = (await strings.call('microblog/post', { keyword: 'a' })).data[0];
  if (post === undefined) return;
  const replies: number = post.replies + 1;
  const id: number | string = post.profile.user_id;
  void [replies, id];
  // @ts-expect-error under "string" an id may be its digits
  const asNumber: number | bigint = post.profile.user_id;
  void asNumber;
}

export async function plainNumbers(): Promise<void> {
  const plain = new Client({ key: 'k', validation: 'strict' });
  const post = (await plain.microblogPost({ keyword: 'a' })).data[0];
  const id: number | undefined = post?.profile.user_id;
  void id;
}

/** Options annotated as `ClientOptions` accept every mode (not only "number"). */
export const annotated: ClientOptions[] = [{ key: 'k', integers: 'bigint' }, { key: 'k', integers: 'string' }];

/** The way back to JSON text from data with bigints (`JSON.stringify` throws on them). */
export async function serialise(): Promise<string> {
  const reply = await new Client({ key: 'k', integers: 'bigint', validation: 'strict' }).microblogPost({ keyword: 'a' });
  return stringify(reply.data, 2);
}
