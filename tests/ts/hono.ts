// Type-checked by `tsc --noEmit --strict -p tests/ts`, never run: Hono's Standard Schema
// validator (`@hono/standard-validator`) types `c.req.valid('json')` as the operation's
// response. The `@ts-expect-error` lines must fail to compile.
import { Hono } from 'hono';
import { sValidator } from '@hono/standard-validator';
import { responseSchema } from '../../pkg/serpkit.js';
import type { MicroblogPost, RelatedKeyword } from '../../pkg/serpkit.js';

/** `true` only when `A` and `B` are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export const app = new Hono()
  .post('/related', sValidator('json', responseSchema('related')), (c) => {
    const records = c.req.valid('json');
    const typed: Same<typeof records, RelatedKeyword[]> = true;
    const hardest = Math.max(0, ...records.map((r) => r.kd));
    // @ts-expect-error related records have no rank
    void records[0]?.rank;
    return c.json({ typed, hardest, keywords: records.map((r) => r.keyword) });
  })
  .post('/posts', sValidator('json', responseSchema('/v1/microblog/post', { request: { keyword: 'a' } })), (c) => {
    const posts = c.req.valid('json');
    const typed: Same<typeof posts, MicroblogPost[]> = true;
    // @ts-expect-error a keyword string is not the posts
    const wrong: string = posts;
    return c.json({ typed, wrong, likes: posts.reduce((sum, p) => sum + p.likes, 0) });
  });
