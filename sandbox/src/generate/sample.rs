//! Sample requests of every operation, for tests, benches and demos.

use serpkit::ops::{self, Operation, Request};

use super::queries::theme_query;
use super::{made_up_domain, slug, theme_of};
use crate::rng::Rng;

// ---------------------------------------------------------------------------------------
// Sample requests

/// A plausible request of `op` (key empty), varied by `seed`: for tests, benches and demos.
pub fn sample_request(op: Operation, seed: u64) -> Request {
    let mut rng = Rng::new(seed ^ 0x5a3_71e5);
    let heads: &[crate::words::Head] = theme_of(rng.next_u64()).1;
    let ccodes = ["US", "GB", "DE", "FR", "IN", "BR", "CA", "AU", "ES", "JP"];
    let keyword = |rng: &mut Rng| {
        let k = theme_query(rng, heads);
        match rng.below(12) {
            0 => k.to_uppercase(),
            1 => format!("{k} café"),
            2 => format!("{k} 2 <b>"),
            _ => k,
        }
    };
    let domain = |rng: &mut Rng| match rng.below(8) {
        0 => format!("WWW.{}", made_up_domain(rng).to_uppercase()),
        1 => format!("blog.{}", made_up_domain(rng)),
        _ => made_up_domain(rng),
    };
    let key = ops::ApiKey::default();
    let json = match op {
        Operation::SearchVolumeBulk => {
            let mut ks: Vec<String> = (0..rng.range(1, 25)).map(|_| keyword(&mut rng)).collect();
            if ks.len() > 2 && rng.chance(0.3) {
                ks.push(ks[0].clone());
            }
            serde_json::json!({"keywords": ks, "ccode": rng.pick(&ccodes)})
        }
        Operation::SearchVolumeSingle | Operation::Related => {
            serde_json::json!({"keyword": keyword(&mut rng), "ccode": rng.pick(&ccodes)})
        }
        Operation::DomainStats => {
            let ds: Vec<String> = (0..rng.range(1, 12)).map(|_| domain(&mut rng)).collect();
            serde_json::json!({ "domains": ds })
        }
        Operation::BacklinkMetrics => {
            let us: Vec<String> = (0..rng.range(1, 12))
                .map(|_| {
                    let k = keyword(&mut rng);
                    format!("https://{}/{}", made_up_domain(&mut rng), slug(&k))
                })
                .collect();
            serde_json::json!({ "urls": us })
        }
        Operation::RankedKeywordsMetrics
        | Operation::RankedKeywordsDomain
        | Operation::BacklinkOverview => serde_json::json!({ "domain": domain(&mut rng) }),
        Operation::OutlineSeo | Operation::MicroblogPost | Operation::VideoVideo => {
            serde_json::json!({ "keyword": keyword(&mut rng) })
        }
    };
    let mut req = Request::from_json(op, &json.to_string()).unwrap_or_else(|_| fallback_request());
    req.set_key(key);
    req
}

fn fallback_request() -> Request {
    Request::OutlineSeo(ops::outline_seo::Request {
        key: ops::ApiKey::default(),
        keyword: "sandbox".into(),
    })
}
