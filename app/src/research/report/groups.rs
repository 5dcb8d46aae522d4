//! The keyword groups as a report section (the explorer's report ends with it): the largest
//! groups by summed volume, with their first keywords and the grouping rules.

use super::{Block, Cell, Section};
use crate::format::fmt_int;
use crate::research::groups;
use crate::research::keyword_row::KeywordRow;

/// Groups listed in the section's table.
const LISTED: usize = 50;

/// Keywords named per group (then "and N more").
const NAMED: usize = 10;

/// Groups drawn as bars.
const BARS: usize = 15;

/// The report section of the groups of `rows`: the largest [`LISTED`] with their first [`NAMED`] keywords.
pub fn groups_section(rows: &[KeywordRow]) -> Section {
    let pairs: Vec<(&str, i64)> = rows
        .iter()
        .map(|r| (r.keyword.as_str(), r.volume))
        .collect();
    let found = groups::group(&pairs);
    let keywords: Vec<String> = rows.iter().map(|r| r.keyword.clone()).collect();
    let table = found
        .iter()
        .take(LISTED)
        .map(|group| {
            let mut names = group.member_keywords(&keywords);
            let more = names.len().saturating_sub(NAMED);
            names.truncate(NAMED);
            let mut list = names.join(", ");
            if more > 0 {
                list.push_str(&format!(" and {more} more"));
            }
            vec![
                Cell::from(group.label.as_str()),
                group.kind.label().into(),
                fmt_int(group.size() as i64).into(),
                fmt_int(group.volume).into(),
                list.into(),
            ]
        })
        .collect();
    Section {
        heading: format!("Keyword groups ({})", fmt_int(found.len() as i64)),
        notes: vec![groups::GROUP_RULES.to_string()],
        blocks: vec![
            Block::Bars {
                title: "Largest groups by summed volume".into(),
                bars: found
                    .iter()
                    .take(BARS)
                    .map(|group| (group.label.clone(), group.volume as f64))
                    .collect(),
            },
            Block::Table {
                caption: "The largest groups".into(),
                headers: ["Group", "Kind", "#Keywords", "#Volume", "Keywords"]
                    .map(String::from)
                    .to_vec(),
                rows: table,
            },
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::keyword_row::tests::record;

    fn rows(keywords: &[(&str, i64)]) -> Vec<KeywordRow> {
        keywords
            .iter()
            .map(|(k, v)| {
                let mut r = record((2024, 4), &[*v; 12], false);
                r.keyword = (*k).into();
                r.search_volume = *v;
                KeywordRow::from_record(&r, "us", 3)
            })
            .collect()
    }

    #[test]
    fn the_section_lists_the_groups_with_their_keywords() {
        let many: Vec<(String, i64)> = (0..12)
            .map(|i| (format!("trail shoes size {i}"), 10))
            .collect();
        let mut input: Vec<(&str, i64)> = many.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        input.push(("how to run faster", 5));
        let section = groups_section(&rows(&input));
        let expected = groups::group(&input);
        assert_eq!(
            section.heading,
            format!("Keyword groups ({})", expected.len())
        );
        assert_eq!(section.notes, [groups::GROUP_RULES]);
        let Block::Table { rows: table, .. } = &section.blocks[1] else {
            panic!("the table second");
        };
        assert_eq!(table.len(), expected.len().min(LISTED));
        let first = &expected[0];
        assert_eq!(table[0][0], Cell::from(first.label.as_str()));
        assert_eq!(table[0][2], Cell::from(first.size().to_string()));
        let Cell::Text(names) = &table[0][4] else {
            panic!("keywords as text");
        };
        assert!(names.ends_with(" and 2 more"), "{names}");
        assert_eq!(names.matches(", ").count(), NAMED - 1);
    }

    #[test]
    fn no_rows_no_groups() {
        let section = groups_section(&[]);
        assert_eq!(section.heading, "Keyword groups (0)");
        let Block::Table { rows, .. } = &section.blocks[1] else {
            panic!("the table second");
        };
        assert!(rows.is_empty());
    }
}
