// A ranked-keywords/domain body the sandbox did not write, for the parsed-value goal on a
// body of another origin (bench/js/cases.mjs). Plain ES2022 with no imports, so the browser
// can load it as is; seeded, so every run validates the same body.
//
// It varies what the sandbox keeps regular: ranks from 1 to 1,000 in any order, URLs of many
// hosts (http and https, subdomains, punycode, ports, queries, fragments, percent escapes),
// keywords in many forms (one to fourteen words, upper and title case, accents, Cyrillic,
// Japanese, emoji, digits, quotes and backslashes), competition as integers and as decimals
// of 1 to 4 places, counts from 0 to 10^9. Every value is one the spec allows, so the report
// has no issue. Integers stay below 2^31: V8 keeps those unboxed, where Ajv's checks are
// fastest (larger ones slow Ajv's `x % 1` more than ours, which would flatter ours).

/** A 32-bit seeded generator (mulberry32): floats in [0, 1). */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ('best cheap buy near me how to what is vs review free online shoes running coffee ' +
  'machine espresso laptop gaming repair insurance car loan mortgage rates weather news recipe ' +
  'chicken vegan pizza flights hotel paris tokyo berlin 2024 size for kids women men used').split(' ');
const FOREIGN = ['café', 'naïve', 'straße', '東京 ホテル', 'カメラ 比較', 'дешевые билеты', 'ñandú',
  'crème brûlée', '😀 emoji', 'zürich', 'smörgåsbord', 'ceviche peruano'];
const HOSTS = ['example.com', 'www.shop-example.net', 'blog.example.org', 'a.b.c.example.co.uk',
  'xn--caf-dma.example', 'm.example.io', 'example.com:8443', 'shop.example.de'];

/** The body's JSON text: `records` ranked keywords (default 50,000) from `seed`. */
export function independentBody(records = 50_000, seed = 20240305) {
  const random = generator(seed);
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = (list) => list[int(0, list.length - 1)];
  const words = (lo, hi) => Array.from({ length: int(lo, hi) }, () => pick(WORDS)).join(' ');
  const keyword = () => {
    const r = random();
    if (r < 0.55) return words(1, 5);
    if (r < 0.7) return `${pick(FOREIGN)} ${pick(WORDS)}`;
    if (r < 0.82) return words(6, 14);
    if (r < 0.9) return `${pick(WORDS).toUpperCase()} ${pick(WORDS).replace(/^./, (c) => c.toUpperCase())}`;
    return `${pick(WORDS)} ${int(1, 9999)} "quoted" back\\slash`;
  };
  const url = () => {
    let u = `${random() < 0.85 ? 'https' : 'http'}://${pick(HOSTS)}/${words(0, 6).replaceAll(' ', '/')}`;
    const r = random();
    if (r < 0.2) u += `?q=${int(1, 1e6)}&ref=serp`;
    else if (r < 0.3) u += `#section-${int(1, 50)}`;
    else if (r < 0.36) u += `/${encodeURIComponent(pick(FOREIGN))}`;
    return u;
  };
  const competition = () => {
    const r = random();
    if (r < 0.1) return 0;
    if (r < 0.15) return 100;
    if (r < 0.4) return int(1, 99);
    return Number((random() * 100).toFixed(int(1, 4)));
  };
  const count = () => {
    const r = random();
    if (r < 0.2) return 0;
    if (r < 0.7) return int(1, 10_000);
    if (r < 0.95) return int(10_000, 10_000_000);
    return int(10_000_000, 1_000_000_000);
  };
  const rank = () => {
    const r = random();
    return r < 0.5 ? int(1, 10) : r < 0.9 ? int(11, 100) : int(101, 1000);
  };
  const rows = [];
  for (let i = 0; i < records; i++) {
    rows.push({
      keyword: keyword(),
      competition: competition(),
      search_volume: count(),
      total_backlinks: count(),
      total_referring_domains: count(),
      rank: rank(),
      url: url(),
    });
  }
  return JSON.stringify(rows);
}
