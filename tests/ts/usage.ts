// Type-checked by `tsc --noEmit --strict -p tests/ts` (in `cargo xtask js` / `cargo xtask test`):
// uses every export and every record type of the built package (pkg/serpkit.d.ts), and shows
// with @ts-expect-error that wrong uses do not compile. Never run.
import init, {
  initSync,
  Account,
  Client,
  estimateCost,
  jsonSchema,
  operations,
  parseResponse,
  responseSchema,
  validateResponse,
} from '../../pkg/serpkit.js';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type {
  BacklinkMetricsRequest,
  BrowseEndpoint,
  BulkOptions,
  BulkProgress,
  BulkResult,
  CallOptions,
  Channel,
  ClientOptions,
  CommandMetadata,
  CostEstimate,
  DailyStat,
  DomainOverview,
  DomainRequest,
  DomainStatsRecord,
  DomainStatsRequest,
  ErrorCode,
  Heading,
  KeywordRequest,
  LoggingDirectives,
  MicroblogPost,
  Money,
  MonthlySearch,
  NavigationEndpoint,
  OperationInfo,
  OperationName,
  OutlinePage,
  OverviewMetrics,
  PageBacklinkMetrics,
  PriceUnit,
  Profile,
  RankedKeyword,
  RankedKeywordsMetrics,
  RefNewLost,
  RelatedKeyword,
  RelatedRequest,
  Reply,
  RetryOptions,
  SearchVolumeBulkRequest,
  SearchVolumeRecord,
  SearchVolumeSingleRequest,
  SerpkitError,
  Severity,
  ValidationIssue,
  ValidationReport,
  Video,
  VideoHashtag,
  Visibility,
  WebCommandMetadata,
} from '../../pkg/serpkit.js';

declare const bytes: Uint8Array;
declare function show(...values: unknown[]): void;

export async function setUp(): Promise<void> {
  await init();
  await init({ module_or_path: new URL('serpkit_bg.wasm', 'https://example.com/pkg/') });
  initSync({ module: bytes });
}

// ---- Synchronous exports ------------------------------------------------------------------

export function pricing(): void {
  const ops: OperationInfo[] = operations();
  for (const o of ops) {
    const path: OperationName = o.path;
    const unit: PriceUnit = o.unit;
    const price: Money = o.price;
    show(path, unit, price.micros, price.usd, price.display, o.title, o.unitLabel);
  }
  const est: CostEstimate = estimateCost('search_volume/bulk', { keywords: ['a'], ccode: 'US' });
  const n: number = est.units + est.micros;
  const m: Money = est;
  show(n, m, est.unit, estimateCost('related', { keyword: 'a', ccode: 'US' }));
  const schema: Record<string, unknown> = jsonSchema('related');
  show(schema['$schema']);
}

export function reports(body: string): void {
  const r: ValidationReport = validateResponse('related', body);
  const r2: ValidationReport = validateResponse('search_volume/bulk', JSON.parse(body), { keywords: ['a'], ccode: 'US' });
  const r3: ValidationReport = validateResponse('related', body, null);
  const r4: ValidationReport = validateResponse('related', new TextEncoder().encode(body));
  const r5: ValidationReport = validateResponse('related', new TextEncoder().encode(body).buffer);
  const parsed: { data: unknown; report: ValidationReport } = parseResponse('related', body);
  const fromBytes: ValidationReport = parseResponse('search_volume/bulk', new TextEncoder().encode(body), { keywords: ['a'], ccode: 'US' }).report;
  // @ts-expect-error parseResponse reads text or bytes, not a parsed value
  parseResponse('related', { keyword: 'x' });
  const ok: boolean = r.ok && r2.ok && r3.ok && r4.ok && r5.ok && parsed.report.ok && fromBytes.ok;
  const counts: number = r.error_count + r.warning_count + r.omitted;
  const issues: ValidationIssue[] = [...r.errors, ...r.warnings];
  for (const i of issues) {
    const sev: Severity = i.severity;
    show(i.path, i.code, i.message, sev);
  }
  if (r.position) {
    show(r.position.offset, r.position.line, r.position.column);
  }
  show(ok, counts);
  // @ts-expect-error the report has no `valid` field
  show(r.valid);
}

// ---- The client -----------------------------------------------------------------------------

const retry: RetryOptions = { maxRetries: 3, baseDelayMs: 200, maxDelayMs: 2000, maxRetryAfterMs: 5000, jitter: false };
// `satisfies` keeps `validation: 'strict'`, so the client's replies are typed as valid
// (outcomes.ts: a client made from options annotated `ClientOptions` allows for every mode).
const options = {
  key: 'k',
  baseUrl: 'http://127.0.0.1:8787',
  timeoutMs: 10_000,
  retries: retry,
  validation: 'strict',
  budgetUsd: '2.50',
  maxBodyBytes: 1 << 26,
  headers: { 'x-sandbox-fault': 'rate_limit_once' },
} satisfies ClientOptions;
// @ts-expect-error the key is required
const noKey: ClientOptions = { baseUrl: 'http://x' };
// @ts-expect-error validation is one of three modes
const loud: ClientOptions = { key: 'k', validation: 'loud' };
show(noKey, loud);

function describe(e: unknown): string {
  const err = e as SerpkitError;
  const code: ErrorCode = err.code;
  const charge: Money | undefined = err.charge;
  // Narrowing on `code` gives each code's fields, required where the package always sets them.
  switch (err.code) {
    case 'invalid_request':
      return `${err.field} ${err.reason}`;
    case 'http':
      return `${err.status} ${err.body} ${err.retryAfterMs ?? ''}`;
    case 'budget_exceeded':
      return `${err.estimate.display} ${err.spent.display} ${err.budget.display}`;
    case 'not_json':
    case 'decode':
      return `${err.path} ${err.line}:${err.column} ${charge?.display}`;
    case 'contract_violation': {
      // The data that was paid for: unknown, as it broke the contract.
      const paid: unknown = err.data;
      return `${err.report.error_count} ${Array.isArray(paid)}`;
    }
    case 'timeout':
      return `${err.timeoutMs} ${err.possiblyCharged?.display}`;
    case 'body_lost':
      return `${err.status} ${charge?.display}`;
    case 'body_too_large':
      return String(err.limit);
    case 'redirect':
      // Browsers hide a redirect's status: 0 there.
      return `${err.status === 0 ? 'redirected' : err.status} ${err.body}`;
    case 'invalid_argument':
    case 'unknown_operation':
    case 'cache':
    case 'not_initialized':
    case 'init_failed':
    case 'missing_key':
    case 'aborted':
      return `${code} ${err.message} ${err.possiblyCharged?.micros}`;
    case 'network':
      return `${err.name} ${err.message} ${err.hint ?? ''}`;
    case 'connection_lost':
      return `${err.message} ${err.possiblyCharged?.display}`;
  }
}

function wrongNarrowing(err: SerpkitError): void {
  // @ts-expect-error `status` belongs to http (and body_lost) errors: narrow on `code` first
  void err.status;
  if (err.code === 'timeout') {
    // @ts-expect-error a timeout has no `field`
    void err.field;
    const ms: number = err.timeoutMs;
    void ms;
  }
}
void wrongNarrowing;

export async function everyOperation(): Promise<void> {
  const c = new Client(options);
  const ctl = new AbortController();
  const call: CallOptions = { signal: ctl.signal };
  const svb: SearchVolumeBulkRequest = { keywords: ['a', 'b'], ccode: 'US' };
  const svs: SearchVolumeSingleRequest = { keyword: 'a', ccode: 'US', key: 'override' };
  const ds: DomainStatsRequest = { domains: ['example.com'] };
  const bm: BacklinkMetricsRequest = { urls: ['https://example.com/'] };
  const dom: DomainRequest = { domain: 'example.com' };
  const kw: KeywordRequest = { keyword: 'a' };
  const rel: RelatedRequest = { keyword: 'a', ccode: 'US' };

  try {
    const a: Reply<SearchVolumeRecord[]> = await c.searchVolumeBulk(svb, call);
    const rec: SearchVolumeRecord | undefined = a.data[0];
    const month: MonthlySearch | undefined = rec?.TARGETED_MONTHLY_SEARCHES[0];
    show(rec?.ccode, rec?.keyword, rec?.AVERAGE_CPC, rec?.COMPETITION, rec?.SEARCH_VOLUME);
    show(month?.month, month?.year, month?.value, month?.count, month?.date);
    show(a.report?.ok, a.charge.micros, a.attempts);

    const b: Reply<SearchVolumeRecord> = await c.searchVolumeSingle(svs);
    show(b.data.TARGETED_MONTHLY_SEARCHES.length);

    const d: DomainStatsRecord[] = (await c.domainStats(ds)).data;
    const s: DomainStatsRecord | undefined = d[0];
    show(s?.domain, s?.domainAsEntered, s?.alphaDA, s?.betaTTF0Name, s?.betaTTF2Value, s?.SN_shares);

    const pm: PageBacklinkMetrics[] = (await c.backlinkMetrics(bm)).data;
    show(pm[0]?.backlinks, pm[0]?.url);

    const rm: RankedKeywordsMetrics[] = (await c.rankedKeywordsMetrics(dom)).data;
    show(rm[0]?.position_91_100);
    // @ts-expect-error there is no field for positions 61 to 70
    show(rm[0]?.position_61_70);

    const rk: RankedKeyword[] = (await c.rankedKeywordsDomain(dom)).data;
    show(rk[0]?.keyword, rk[0]?.rank, rk[0]?.competition, rk[0]?.url, rk[0]?.total_referring_domains);

    const ov: DomainOverview = (await c.backlinkOverview(dom)).data;
    const metrics: OverviewMetrics = ov.metrics;
    const base: PageBacklinkMetrics = metrics;
    const day: DailyStat | undefined = ov.stats[0];
    const ref: RefNewLost | undefined = ov.ref_newlost[0];
    const kind: 'new' | 'lost' | undefined = ref?.new_lost_type;
    show(metrics._id, metrics.__v, metrics.createdAt, metrics.updatedAt, base.refdomains);
    show(day?.date, day?.new, day?.lost, ref?.refdomain, ref?.domain_inlink_rank, ref?.first_seen, kind);

    const pages: OutlinePage[] = (await c.outlineSeo(kw)).data;
    const h: Heading | undefined = pages[0]?.headings[0];
    show(h?.type, h?.text, pages[0]?.rank, pages[0]?.url);

    const posts: MicroblogPost[] = (await c.microblogPost(kw)).data;
    const profile: Profile | undefined = posts[0]?.profile;
    show(profile?.user_id, profile?.verified, posts[0]?.hashtags, posts[0]?.tagged, posts[0]?.media, posts[0]?.tweet);

    const videos: Video[] = (await c.videoVideo(kw)).data;
    const v: Video | undefined = videos[0];
    const channel: Channel | undefined = v?.channel;
    const tag: VideoHashtag | undefined = v?.hashtags[0];
    const nav: NavigationEndpoint | undefined = tag?.navigationEndpoint;
    const cmd: CommandMetadata | undefined = nav?.commandMetadata;
    const web: WebCommandMetadata | undefined = cmd?.webCommandMetadata;
    const browse: BrowseEndpoint | undefined = nav?.browseEndpoint;
    const log: LoggingDirectives | undefined = tag?.loggingDirectives;
    const vis: Visibility | undefined = log?.visibility;
    show(channel?.is_monetized, channel?.available_countries, web?.rootVe, web?.apiUrl, browse?.params, vis?.types);
    show(v?.views, v?.error, v?.keywords, v?.language, log?.enableDisplayloggerExperiment, nav?.clickTrackingParams);

    const related: RelatedKeyword[] = (await c.related(rel)).data;
    show(related[0]?.kd, related[0]?.cpc);

    const any: Reply<unknown> = await c.call('related', rel, call);
    const any2: Reply<unknown> = await c.call('/v1/related', rel);
    show(any.data, any2.data);

    const progress: BulkProgress[] = [];
    const bulk: BulkOptions = { chunkSize: 100, concurrency: 2, onProgress: (p) => progress.push(p), signal: ctl.signal };
    const job: BulkResult = await c.searchVolumeBulkChunked(svb, bulk);
    const last: BulkProgress | undefined = progress.at(-1);
    show(job.ok ? job.data.length : 0, job.missing, job.charge.display, job.error?.code, last?.doneChunks, last?.totalChunks);
    const maybe: Money = job.possiblyCharged;
    show(maybe.micros, job.error?.possiblyCharged?.display);
    show(last?.doneKeywords, last?.totalKeywords, last?.charge.micros);
    show(await c.searchVolumeBulkChunked(svb));

    // @ts-expect-error a keyword request has no `domain`
    await c.outlineSeo({ domain: 'example.com' });
    // @ts-expect-error search_volume/bulk needs `ccode`
    await c.searchVolumeBulk({ keywords: ['a'] });
    // @ts-expect-error data is an array of records, not one record
    const wrong: RelatedKeyword = (await c.related(rel)).data;
    show(wrong);
  } catch (e) {
    show(describe(e));
  } finally {
    const spent: Money = c.spent;
    const left: Money | null = c.remaining;
    const possibly: Money = c.possiblyCharged;
    show(spent.display, left?.display, possibly.display);
    // @ts-expect-error possiblyCharged is read-only
    c.possiblyCharged = spent;
    c.free();
  }
}

// Standard Schema: the real interfaces of `@standard-schema/spec` (tests/package.json).
export async function standardSchema(body: unknown): Promise<void> {
  const schema: StandardSchemaV1 = responseSchema('related');
  const withJsonSchema: StandardJSONSchemaV1 = responseSchema('search_volume/bulk', { request: { keywords: ['a'], ccode: 'US' } });
  const result = await schema['~standard'].validate(body);
  if (result.issues) {
    const where: ReadonlyArray<PropertyKey | StandardSchemaV1.PathSegment> | undefined = result.issues[0]?.path;
    void where;
  } else {
    const value: unknown = result.value;
    void value;
  }
  const ours = responseSchema('related')['~standard'].validate(body);
  const warnings: number = ours.serpkit.report.warning_count;
  const draft7: Record<string, unknown> = withJsonSchema['~standard'].jsonSchema.input({ target: 'draft-07' });
  void [warnings, draft7];
}

// `call` is typed by the path: the request and the data follow from the operation.
export async function typedCall(c: Client): Promise<void> {
  const related: Reply<RelatedKeyword[]> = await c.call('related', { keyword: 'a', ccode: 'US' });
  const answer = await c.call('backlink/overview', { domain: 'example.com' });
  const overview: DomainOverview | undefined = answer.ok ? answer.data : undefined;
  // @ts-expect-error a ranked-keywords request is not a related request
  await c.call('related', { domain: 'example.com' });
  // @ts-expect-error not an operation
  await c.call('nope', {});
  void [related, overview];
}

// Exact integers: the `integers` option types `data` (the declared ids are a bigint or a
// string under "bigint" or "string", every other number stays a number: integers.ts).
// Strict clients: their data is typed (outcomes.ts).
export async function exactIntegers(): Promise<void> {
  const big = new Client({ key: 'k', integers: 'bigint', validation: 'strict' });
  const posts = await big.microblogPost({ keyword: 'a' });
  const id: bigint | undefined = posts.data[0]?.profile.user_id;
  // @ts-expect-error under "bigint" an id is a bigint
  const asNumber: number | undefined = posts.data[0]?.profile.user_id;
  const strings = await new Client({ key: 'k', integers: 'string', validation: 'strict' }).call('microblog/post', { keyword: 'a' });
  const digits: number | string | undefined = strings.data[0]?.profile.user_id;
  const chunked = await big.searchVolumeBulkChunked({ keywords: ['a'], ccode: 'US' });
  const volume: number | bigint | undefined = chunked.ok ? chunked.data[0]?.SEARCH_VOLUME : undefined;
  const plain = await new Client({ key: 'k', validation: 'strict' }).microblogPost({ keyword: 'a' });
  const exactNumber: number | undefined = plain.data[0]?.profile.user_id;
  // @ts-expect-error integers is one of three modes
  const float = new Client({ key: 'k', integers: 'float' });
  show(id, asNumber, digits, volume, exactNumber, float);
}

// One account for several clients: spent, possibly charged and the budget are shared.
export function sharedAccount(): void {
  const account = new Account({ budgetUsd: 1.5 });
  const a = new Client({ key: 'k', account });
  const b = new Client({ key: 'k', baseUrl: 'http://127.0.0.1:9', account: a.account });
  const same: Account = b.account;
  const left: Money | null = account.remaining;
  const budget: Money | null = account.budget;
  const spent: Money = account.spent;
  const possibly: Money = same.possiblyCharged;
  new Account();
  new Account({ budgetUsd: '$2.00' });
  // @ts-expect-error an account's option is budgetUsd
  new Account({ budget: 2 });
  // @ts-expect-error account is an Account, not its options
  new Client({ key: 'k', account: { budgetUsd: 1 } });
  // @ts-expect-error the account is read-only
  a.account = account;
  show(left, budget, spent, possibly);
}
