//! The domain metrics of a `domainstats` record, listed once: label, JSON field, getter and
//! which way is better. The domain cards group them, compare puts them side by side and
//! marks the best value, and the CSV export writes them as columns.

use serpkit::ops::domainstats::{parse_stat, DomainStatsRecord};

use crate::components::csv::{self, Cell};

/// Which value of a metric is the better one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Better {
    /// More is better (authority, links).
    Higher,
    /// Less is better (rank, spam score).
    Lower,
}

/// One metric of a domain.
#[derive(Clone, Copy)]
pub struct DomainMetric {
    /// The card group it is shown in.
    pub group: &'static str,
    /// Its name on its own (compare rows, CSV header).
    pub label: &'static str,
    /// Its name within its card group (`Rank` under "Authority (alpha)").
    pub card_label: &'static str,
    /// The JSON field of the record (`alphaDA`; `data-testid="stat-<field>"` on the card).
    pub field: &'static str,
    /// The service's string of the record.
    pub value: fn(&DomainStatsRecord) -> &str,
    /// Which value is better.
    pub better: Better,
}

impl DomainMetric {
    /// The value as a number (`None` when empty or not a number).
    pub fn number(&self, record: &DomainStatsRecord) -> Option<f64> {
        parse_stat::<f64>((self.value)(record)).filter(|v| v.is_finite())
    }
}

// Decided (issue 43): the service names its two third-party link indexes only `alpha` and
// `beta` (the spec replaced their brands by neutral words), and a client reads neither. Each
// group is named for what its figures are, with the index it comes from as "index A" /
// "index B", and a line on where they come from ([`group_note`]); a figure that exists in both
// (links) names its index in its label, so no row of compare sets one index's count against
// the other's (each row, and its "best", is one index's scale).
const ALPHA: &str = "Authority scores · link index A";
const BETA: &str = "Link counts and flow · link index B";
const SOCIAL: &str = "Social counters";

/// Where a group's figures come from, in a line under its title.
pub fn group_note(group: &str) -> &'static str {
    match group {
        ALPHA => {
            "From the first third-party link index the service reports: domain and page \
                  authority (0–100), its rank of the domain, trust, spam score, and the links it \
                  counts to the domain."
        }
        BETA => {
            "From the second third-party link index: citation flow and trust flow (0–100) and \
                 the links, referring domains, subnets and IPs it has crawled. Its counts are \
                 not comparable with index A's or with the backlink overview's."
        }
        SOCIAL => {
            "Shares and comments on a social network, bookmarks and image-board pins that \
                   the service counts for the domain."
        }
        _ => "",
    }
}

/// Every metric, in card and table order.
pub const DOMAIN_METRICS: [DomainMetric; 18] = {
    use Better::{Higher, Lower};
    const fn metric(
        group: &'static str,
        label: &'static str,
        card_label: &'static str,
        field: &'static str,
        value: fn(&DomainStatsRecord) -> &str,
        better: Better,
    ) -> DomainMetric {
        DomainMetric {
            group,
            label,
            card_label,
            field,
            value,
            better,
        }
    }
    [
        metric(
            ALPHA,
            "Domain authority (index A)",
            "Domain authority",
            "alphaDA",
            |r| &r.alpha_da,
            Higher,
        ),
        metric(
            ALPHA,
            "Page authority (index A)",
            "Page authority",
            "alphaPA",
            |r| &r.alpha_pa,
            Higher,
        ),
        metric(
            ALPHA,
            "Rank (index A)",
            "Rank",
            "alphaRank",
            |r| &r.alpha_rank,
            Lower,
        ),
        metric(
            ALPHA,
            "Trust (index A)",
            "Trust",
            "alphaTrust",
            |r| &r.alpha_trust,
            Higher,
        ),
        metric(
            ALPHA,
            "Spam score (index A)",
            "Spam score",
            "alphaSpam",
            |r| &r.alpha_spam,
            Lower,
        ),
        metric(
            ALPHA,
            "Links (index A)",
            "Links",
            "alphaLinks",
            |r| &r.alpha_links,
            Higher,
        ),
        metric(
            BETA,
            "Citation flow (index B)",
            "Citation flow",
            "betaCF",
            |r| &r.beta_cf,
            Higher,
        ),
        metric(
            BETA,
            "Trust flow (index B)",
            "Trust flow",
            "betaTF",
            |r| &r.beta_tf,
            Higher,
        ),
        metric(
            BETA,
            "Links (index B)",
            "Links",
            "betaLinks",
            |r| &r.beta_links,
            Higher,
        ),
        metric(
            BETA,
            "Referring domains (index B)",
            "Referring domains",
            "betaRefDomains",
            |r| &r.beta_ref_domains,
            Higher,
        ),
        metric(
            BETA,
            "Referring .edu (index B)",
            "Referring .edu",
            "betaRefEDU",
            |r| &r.beta_ref_edu,
            Higher,
        ),
        metric(
            BETA,
            "Referring .gov (index B)",
            "Referring .gov",
            "betaRefGov",
            |r| &r.beta_ref_gov,
            Higher,
        ),
        metric(
            BETA,
            "Subnets (index B)",
            "Subnets",
            "betaRefSubnets",
            |r| &r.beta_ref_subnets,
            Higher,
        ),
        metric(
            BETA,
            "IPs (index B)",
            "IPs",
            "betaIPs",
            |r| &r.beta_ips,
            Higher,
        ),
        metric(
            SOCIAL,
            "Social network comments",
            "Social network comments",
            "SN_comments",
            |r| &r.sn_comments,
            Higher,
        ),
        metric(
            SOCIAL,
            "Social network shares",
            "Social network shares",
            "SN_shares",
            |r| &r.sn_shares,
            Higher,
        ),
        metric(
            SOCIAL,
            "Social bookmarks",
            "Bookmarks",
            "stumbles",
            |r| &r.stumbles,
            Higher,
        ),
        metric(
            SOCIAL,
            "Image board pins",
            "Image board pins",
            "image_board_pins",
            |r| &r.image_board_pins,
            Higher,
        ),
    ]
};

/// The metrics grouped as the card shows them: (group title, its metrics), in order.
pub fn metric_groups() -> Vec<(&'static str, Vec<DomainMetric>)> {
    let mut groups: Vec<(&'static str, Vec<DomainMetric>)> = Vec::new();
    for m in DOMAIN_METRICS {
        match groups.last_mut() {
            Some((title, items)) if *title == m.group => items.push(m),
            _ => groups.push((m.group, vec![m])),
        }
    }
    groups
}

/// Index of the best value of a row (`None` when fewer than two values are reported or all
/// are equal).
pub fn best(values: &[Option<f64>], better: Better) -> Option<usize> {
    let present: Vec<(usize, f64)> = values
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.filter(|v| v.is_finite()).map(|v| (i, v)))
        .collect();
    if present.len() < 2 {
        return None;
    }
    let pick = present.iter().copied().reduce(|a, b| {
        let wins = match better {
            Better::Higher => b.1 > a.1,
            Better::Lower => b.1 < a.1,
        };
        if wins {
            b
        } else {
            a
        }
    })?;
    let ties = present.iter().filter(|(_, v)| *v == pick.1).count();
    (ties == 1).then_some(pick.0)
}

/// The records as CSV: the domain, then one column per metric (empty when not reported).
pub fn to_csv(records: &[DomainStatsRecord]) -> String {
    let header: Vec<&str> = std::iter::once("Domain")
        .chain(DOMAIN_METRICS.iter().map(|m| m.label))
        .collect();
    let rows = records.iter().map(|r| {
        std::iter::once(Cell::text(&r.domain))
            .chain(
                DOMAIN_METRICS
                    .iter()
                    .map(|m| m.number(r).map_or_else(Cell::empty, Cell::num)),
            )
            .collect::<Vec<_>>()
    });
    csv::to_csv(&header, rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_values() {
        assert_eq!(best(&[Some(1.0), Some(3.0), None], Better::Higher), Some(1));
        assert_eq!(best(&[Some(1.0), Some(3.0)], Better::Lower), Some(0));
        assert_eq!(best(&[Some(1.0), Some(1.0)], Better::Higher), None);
        assert_eq!(best(&[Some(1.0), None], Better::Higher), None);
    }

    #[test]
    fn groups_and_csv() {
        let groups = metric_groups();
        assert_eq!(
            groups.iter().map(|g| (g.0, g.1.len())).collect::<Vec<_>>(),
            vec![(ALPHA, 6), (BETA, 8), (SOCIAL, 4)]
        );
        let record = DomainStatsRecord {
            domain: "a.com".into(),
            alpha_da: "42".into(),
            beta_tf: "-3".into(),
            ..Default::default()
        };
        let text = to_csv(&[record]);
        let mut lines = text.lines();
        assert!(lines.next().unwrap_or_default().starts_with(
            "Domain,Domain authority (index A),Page authority (index A),Rank (index A)"
        ));
        assert_eq!(lines.next(), Some("a.com,42,,,,,,,-3,,,,,,,,,,"));
    }
}
