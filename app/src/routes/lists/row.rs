//! A list's row: the explorer's row (search volume, trends, score, intent) with the keyword
//! difficulty and the country of the figures. Issue 43: a keyword added from Related was blank
//! in its list although its figures were bought with it; a list keeps the figures already
//! bought with each keyword, from a search volume record or else a related keyword record.

use std::collections::HashMap;
use std::sync::OnceLock;

use leptos::prelude::*;
use serpkit::ops::related::RelatedKeyword;
use serpkit::Operation;

use crate::components::csv::Cell;
use crate::components::keyword_row::KeywordRow;
use crate::components::{Column, SortKey, TableRow};
use crate::model::CallResult;
use crate::research::intent;
use crate::research::trends::Season;

/// A keyword of a list with the figures bought with it.
#[derive(Clone, Debug, PartialEq)]
pub struct ListRow {
    /// The explorer's row (its country in `ccode`).
    pub row: KeywordRow,
    /// Keyword difficulty (0–100), from a related keyword record of the same keyword and
    /// country; search volume records give none.
    pub kd: Option<i64>,
}

/// The explorer row's columns, built once (each list cell reads one of them).
fn explorer_columns() -> &'static [Column<[KeywordRow]>] {
    static COLUMNS: OnceLock<Vec<Column<[KeywordRow]>>> = OnceLock::new();
    COLUMNS.get_or_init(KeywordRow::columns)
}

/// The explorer row's column `$i`, read through [`ListRow::row`].
macro_rules! explorer_column {
    ($i:expr) => {{
        let c = explorer_columns()[$i];
        Column {
            id: c.id,
            label: c.label,
            numeric: c.numeric,
            width: c.width,
            key: |rows: &[ListRow], i| {
                (explorer_columns()[$i].key)(std::slice::from_ref(&rows[i].row), 0)
            },
            csv: c.csv.map(|_| {
                (|rows: &[ListRow], i| {
                    explorer_columns()[$i]
                        .csv
                        .map_or_else(Cell::empty, |f| f(std::slice::from_ref(&rows[i].row), 0))
                }) as fn(&[ListRow], usize) -> Cell
            }),
            csv_header: c.csv_header,
        }
    }};
}

impl TableRow for ListRow {
    fn id(&self) -> String {
        self.row.keyword.clone()
    }
    fn columns() -> Vec<Column<[Self]>> {
        let mut columns = vec![
            explorer_column!(0),
            explorer_column!(1),
            explorer_column!(2),
            explorer_column!(3),
            explorer_column!(4),
            explorer_column!(5),
            explorer_column!(6),
            explorer_column!(7),
            explorer_column!(8),
            explorer_column!(9),
            explorer_column!(10),
        ];
        columns.push(Column {
            id: "kd",
            label: "KD",
            numeric: true,
            width: "",
            key: |rows, i| rows[i].kd.map_or(SortKey::Missing, SortKey::int),
            csv: Some(|rows, i| rows[i].kd.map_or_else(Cell::empty, Cell::num)),
            csv_header: Some("Keyword difficulty"),
        });
        columns.push(Column {
            id: "country",
            label: "Country",
            numeric: false,
            width: "",
            key: |rows, i| SortKey::text(&rows[i].row.ccode),
            csv: Some(|rows, i| Cell::text(&rows[i].row.ccode)),
            csv_header: None,
        });
        columns
    }
    fn cells(&self) -> AnyView {
        let kd = self.kd.map(|k| k.to_string()).unwrap_or_else(|| "–".into());
        view! {
            {self.row.cells()}
            <td class="num" data-col="kd">{kd}</td>
            <td data-col="country">{self.row.ccode.clone()}</td>
        }
        .into_any()
    }
}

/// The related keyword records of the stored `related` results from `source`, by normalised
/// keyword: each with its request's country. Decided: where a keyword was bought for several
/// countries, `prefer` (the workspace's country) wins, else the newest result.
pub fn related_records(
    results: &HashMap<String, CallResult>,
    source: &str,
    prefer: &str,
) -> HashMap<String, (RelatedKeyword, String)> {
    let mut stored: Vec<&CallResult> = results
        .values()
        .filter(|r| r.operation == Operation::Related.path() && r.source == source)
        .collect();
    stored.sort_by(|a, b| a.at.total_cmp(&b.at));
    let mut out: HashMap<String, (RelatedKeyword, String)> = HashMap::new();
    for r in stored {
        let ccode = serde_json::from_str::<serde_json::Value>(&r.request)
            .ok()
            .and_then(|v| v.get("ccode")?.as_str().map(str::to_uppercase))
            .unwrap_or_default();
        let Ok(records) = serpkit::decode::<Vec<RelatedKeyword>>(&r.body) else {
            continue;
        };
        for k in records {
            let key = serpkit::records::normalize_keyword(&k.keyword);
            let keep_old = out
                .get(&key)
                .is_some_and(|(_, cc)| cc.eq_ignore_ascii_case(prefer) && !ccode.eq_ignore_ascii_case(prefer));
            if !keep_old {
                out.insert(key, (k, ccode.clone()));
            }
        }
    }
    out
}

/// A row from a related keyword record: its volume, CPC, competition and difficulty; no
/// monthly searches (the operation gives none), so no trend, peak or season.
pub fn from_related(r: &RelatedKeyword, ccode: &str) -> ListRow {
    ListRow {
        row: KeywordRow {
            keyword: r.keyword.clone(),
            intent: intent::classify_with(&r.keyword, &[], Some(r.cpc), Some(r.competition)),
            ccode: ccode.to_string(),
            volume: r.search_volume,
            cpc: r.cpc,
            competition: r.competition,
            months: Vec::new(),
            window: String::new(),
            change: None,
            change_3m: None,
            peak: None,
            season: Season::NoData,
            score: None,
        },
        kd: Some(r.kd),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many columns the explorer's row has ([`ListRow::columns`] names each).
    const EXPLORER_COLUMNS: usize = 11;

    #[test]
    fn the_list_adds_kd_and_country_to_every_explorer_column() {
        assert_eq!(explorer_columns().len(), EXPLORER_COLUMNS);
        let ids: Vec<&str> = ListRow::columns().iter().map(|c| c.id).collect();
        let explorer: Vec<&str> = explorer_columns().iter().map(|c| c.id).collect();
        assert_eq!(ids[..EXPLORER_COLUMNS], explorer[..]);
        assert_eq!(ids[EXPLORER_COLUMNS..], ["kd", "country"]);
    }

    #[test]
    fn a_related_record_keeps_its_figures() {
        let r = RelatedKeyword {
            keyword: "trail shoes".into(),
            competition: 0.4,
            cpc: 1.25,
            search_volume: 4400,
            kd: 37,
        };
        let row = from_related(&r, "GB");
        let rows = [row];
        let cols = ListRow::columns();
        let csv: Vec<Cell> = cols.iter().filter_map(|c| c.csv.map(|f| f(&rows, 0))).collect();
        assert_eq!(csv[0], Cell::text("trail shoes"));
        assert_eq!(csv[1], Cell::num(4400i64));
        assert_eq!(csv[csv.len() - 2], Cell::num(37i64));
        assert_eq!(csv[csv.len() - 1], Cell::text("GB"));
    }
}
