// Type-checked by `tsc --noEmit --strict -p tests/ts`, never run: with `integers: "bigint"` or
// "string" only the integers the core declares may exceed 2^53 (microblog `profile.user_id`)
// become `number | bigint` / `number | string`; every other number stays a `number`, so
// arithmetic on counts compiles. Each `@ts-expect-error` line must fail to compile.
import { Client } from '../../pkg/serpkit.js';
import type { LargeInteger, MicroblogPost, Profile, RelatedKeyword, ResponseOf } from '../../pkg/serpkit.js';

/** `true` only when `A` and `B` are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export const declared: [
  Same<Profile<'bigint'>['user_id'], number | bigint>,
  Same<Profile<'string'>['user_id'], number | string>,
  Same<Profile['user_id'], number>,
  Same<LargeInteger<'number'>, number>,
  Same<MicroblogPost<'bigint'>['likes'], number>,
  Same<ResponseOf<'related', 'bigint'>, RelatedKeyword[]>,
  Same<ResponseOf<'/v1/microblog/post', 'string'>, MicroblogPost<'string'>[]>,
] = [true, true, true, true, true, true, true];

export async function bigints(): Promise<void> {
  const big = new Client({ key: 'k', integers: 'bigint' });
  const post = (await big.microblogPost({ keyword: 'a' })).data[0];
  if (post === undefined) return;
  // Counts are numbers in every mode.
  const likes: number = post.likes + 1;
  const views: number = ((await big.videoVideo({ keyword: 'a' })).data[0]?.views ?? 0) + 1;
  const volume: number = ((await big.call('/v1/related', { keyword: 'a', ccode: 'US' })).data[0]?.search_volume ?? 0) * 2;
  const chunked = await big.searchVolumeBulkChunked({ keywords: ['a'], ccode: 'US' });
  const monthly: number = (chunked.data[0]?.TARGETED_MONTHLY_SEARCHES[0]?.value ?? 0) + 1;
  // The id may be a bigint.
  const id: number | bigint = post.profile.user_id;
  void [likes, views, volume, monthly, id];
  // @ts-expect-error under "bigint" an id may be a bigint, not only a number
  const asNumber: number = post.profile.user_id;
  // @ts-expect-error nor is it ever a string
  const asString: string | number = post.profile.user_id;
  void [asNumber, asString];
}

export async function digitStrings(): Promise<void> {
  const strings = new Client({ key: 'k', integers: 'string' });
  const post = (await strings.call('microblog/post', { keyword: 'a' })).data[0];
  if (post === undefined) return;
  const replies: number = post.replies + 1;
  const id: number | string = post.profile.user_id;
  void [replies, id];
  // @ts-expect-error under "string" an id may be its digits
  const asNumber: number = post.profile.user_id;
  void asNumber;
}

export async function plainNumbers(): Promise<void> {
  const plain = new Client({ key: 'k' });
  const post = (await plain.microblogPost({ keyword: 'a' })).data[0];
  const id: number | undefined = post?.profile.user_id;
  void id;
}
