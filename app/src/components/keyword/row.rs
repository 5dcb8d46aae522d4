//! A row of the keyword explorer on screen (search intent, search volume, CPC, competition,
//! the 12 monthly values with their trends and season, the opportunity score): its table
//! columns, CSV cells and trend filter fields. The row itself is `research::keyword_row`;
//! the explorer's report is `research::report::explorer`.

use leptos::prelude::*;
use leptos_router::components::A;

use crate::components::csv::Cell;
use crate::components::{fmt_change, fmt_cpc, fmt_int, Column, SortKey, Sparkline, TableRow};
use crate::paths::keyword_route;
use crate::research::intent::Intents;
use crate::research::trends::{self, percent_bound, Season, SeasonFilter, TrendFilter};

/// The row's data, defined with the reports that read it; named here too, where the explorer,
/// the lists page and the filters import it with the row's columns.
pub use crate::research::keyword_row::{covered_text, score_rows, score_text, KeywordRow};

/// A table row with an opportunity score (the explorer's, a list's, the related keywords').
pub trait Scored {
    /// Its score within the shown list, `None` when it has none.
    fn score(&self) -> Option<f64>;
}

impl Scored for KeywordRow {
    fn score(&self) -> Option<f64> {
        self.score
    }
}

/// The opportunity score column, one definition for every table that shows it.
pub fn score_column<R: Scored>() -> Column<[R]> {
    Column {
        id: "score",
        label: "Opportunity",
        numeric: true,
        width: "",
        key: |rows, i| rows[i].score().map_or(SortKey::Missing, SortKey::num),
        csv: Some(|rows, i| {
            rows[i]
                .score()
                .map_or_else(Cell::empty, |s| Cell::decimal(s, 1))
        }),
        csv_header: None,
    }
}

/// What a 12-month change cell compares (`trends::CHANGE_RULE`): blank without a 13th month.
const CHANGE_TITLE: &str =
    "The latest month against the same month a year earlier; blank without that 13th month";

/// The intent cell: the letters (I, N, C, T) as Semrush shows them, each intent's name in the
/// tooltip and for screen readers. The cell is positioned so the screen readers' text (an
/// absolute box) stays inside the table's scrolling box: without it, measured, a narrow window
/// scrolled sideways to reach it.
fn intent_cell(set: Intents) -> impl IntoView {
    let (names, title) = (set.text(), set.text());
    view! {
        <td data-col="intent" title=title style="position: relative">
            <span aria-hidden="true">{set.letters()}</span><span class="sr-only">{names}</span>
        </td>
    }
}

/// The season's sort order: in season first, then approaching, out of season, not seasonal.
fn season_rank(season: Season) -> i64 {
    match season {
        Season::InSeason => 4,
        Season::Approaching => 3,
        Season::OutOfSeason => 2,
        Season::NotSeasonal => 1,
        Season::NoData => 0,
    }
}

impl TableRow for KeywordRow {
    fn id(&self) -> String {
        self.keyword.clone()
    }
    fn columns() -> Vec<Column<[Self]>> {
        vec![
            Column {
                id: "keyword",
                label: "Keyword",
                numeric: false,
                width: "",
                key: |rows, i| SortKey::text(&rows[i].keyword),
                csv: Some(|rows, i| Cell::text(&rows[i].keyword)),
                csv_header: None,
            },
            Column {
                id: "volume",
                label: "Volume",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::int(rows[i].volume),
                csv: Some(|rows, i| Cell::num(rows[i].volume)),
                csv_header: None,
            },
            Column {
                id: "cpc",
                label: "CPC",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::num(rows[i].cpc),
                csv: Some(|rows, i| Cell::decimal(rows[i].cpc, 2)),
                csv_header: None,
            },
            Column {
                id: "competition",
                // The Ads figure (advertisers' competition, 0–1), not ranking difficulty;
                // short on screen, where the Intent column must fit at 1366 px.
                label: "Ads comp.",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::num(rows[i].competition),
                csv: Some(|rows, i| Cell::decimal(rows[i].competition, 2)),
                csv_header: Some("Ads competition"),
            },
            Column {
                id: "trend",
                label: "12 months",
                numeric: false,
                width: "",
                key: |rows, i| rows[i].change.map_or(SortKey::Missing, SortKey::num),
                csv: Some(|rows, i| Cell::months(&rows[i].window, &rows[i].months)),
                csv_header: Some(crate::components::csv::MONTHS_HEADER),
            },
            Column {
                id: "change",
                label: "12-month change",
                numeric: true,
                width: "",
                key: |rows, i| rows[i].change.map_or(SortKey::Missing, SortKey::num),
                csv: Some(|rows, i| {
                    rows[i]
                        .change
                        .map_or_else(Cell::empty, |c| Cell::decimal(c * 100.0, 2))
                }),
                // In percent, as the screen shows it (+56 % is 55.56, not 0.5556).
                csv_header: Some("12-month change (%)"),
            },
            Column {
                id: "change3",
                label: "3-month change",
                numeric: true,
                width: "",
                key: |rows, i| rows[i].change_3m.map_or(SortKey::Missing, SortKey::num),
                csv: Some(|rows, i| {
                    rows[i]
                        .change_3m
                        .map_or_else(Cell::empty, |c| Cell::decimal(c * 100.0, 2))
                }),
                // In percent, as the screen shows it (+56 % is 55.56, not 0.5556).
                csv_header: Some("3-month change (%)"),
            },
            Column {
                id: "peak",
                label: "Peak",
                numeric: false,
                width: "",
                key: |rows, i| {
                    rows[i]
                        .peak
                        .map_or(SortKey::Missing, |m| SortKey::int(i64::from(m)))
                },
                csv: Some(|rows, i| Cell::text(trends::month_short(rows[i].peak))),
                csv_header: Some("Peak month"),
            },
            Column {
                id: "season",
                label: "Season",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::int(season_rank(rows[i].season)),
                csv: Some(|rows, i| Cell::text(rows[i].season.label())),
                csv_header: None,
            },
            score_column(),
            // Last (Semrush shows it next to the keyword): the columns before it keep their
            // places in the CSV, for the spreadsheets and scripts that read them by position.
            Column {
                id: "intent",
                label: "Intent",
                numeric: false,
                width: "",
                key: |rows, i| SortKey::int(rows[i].intent.sort_key()),
                csv: Some(|rows, i| Cell::text(rows[i].intent.text())),
                csv_header: None,
            },
        ]
    }
    fn cells(&self) -> AnyView {
        let href = keyword_route(&self.keyword, &self.ccode);
        let up = self.change.is_some_and(|c| c >= 0.0);
        let kw = self.keyword.clone();
        view! {
            <td><A href=href attr:class="kw">{kw}</A></td>
            <td class="num" data-col="volume">{fmt_int(self.volume)}</td>
            <td class="num" data-col="cpc">{fmt_cpc(self.cpc)}</td>
            <td class="num" data-col="competition">{format!("{:.2}", self.competition)}</td>
            <td class="trend"><Sparkline values=self.months.clone() /></td>
            <td class="num" class:up=up class:down=self.change.is_some() && !up data-col="change" title=CHANGE_TITLE>{fmt_change(self.change)}</td>
            <td class="num" data-col="change3">{fmt_change(self.change_3m)}</td>
            <td data-col="peak">{trends::month_short(self.peak)}</td>
            <td data-col="season">{self.season.label()}</td>
            <td class="num" data-col="score">{score_text(self.score)}</td>
            {intent_cell(self.intent)}
        }
        .into_any()
    }
}

/// The trend filter's fields as typed (percentages, season id), for the explorer (in its URL)
/// and each keyword list. `Copy`.
#[derive(Clone, Copy)]
pub struct TrendFilterInputs {
    /// [`SeasonFilter::id`].
    pub season: RwSignal<String>,
    /// 12-month change from (%).
    pub change_min: RwSignal<String>,
    /// 12-month change to (%).
    pub change_max: RwSignal<String>,
    /// 3-month change from (%).
    pub change3_min: RwSignal<String>,
    /// 3-month change to (%).
    pub change3_max: RwSignal<String>,
}

impl TrendFilterInputs {
    /// The URL parameters of the fields, in [`TrendFilterInputs::signals`] order.
    pub const PARAMS: [&'static str; 5] = ["season", "chmin", "chmax", "ch3min", "ch3max"];

    /// Fields holding these texts (URL values, in [`Self::PARAMS`] order).
    pub fn new(values: [String; 5]) -> TrendFilterInputs {
        let [season, a, b, c, d] = values.map(RwSignal::new);
        TrendFilterInputs {
            season,
            change_min: a,
            change_max: b,
            change3_min: c,
            change3_max: d,
        }
    }

    /// The fields' signals, in [`Self::PARAMS`] order.
    pub fn signals(self) -> [RwSignal<String>; 5] {
        [
            self.season,
            self.change_min,
            self.change_max,
            self.change3_min,
            self.change3_max,
        ]
    }

    /// Empties every field.
    pub fn clear(self) {
        for s in self.signals() {
            s.set(String::new());
        }
    }

    /// The filter the fields say (reactive).
    pub fn filter(self) -> TrendFilter {
        TrendFilter {
            season: SeasonFilter::from_id(&self.season.get()),
            change_12m: (
                percent_bound(&self.change_min.get()),
                percent_bound(&self.change_max.get()),
            ),
            change_3m: (
                percent_bound(&self.change3_min.get()),
                percent_bound(&self.change3_max.get()),
            ),
        }
    }

    /// True when `row` passes the filter (reactive).
    pub fn keeps(self, row: &KeywordRow) -> bool {
        self.filter().keeps(row.season, row.change, row.change_3m)
    }
}

/// The trend filter's fields (season, 12-month and 3-month change ranges in %). Test ids are
/// `testid_prefix` + `season`, `chmin`, `chmax`, `ch3min`, `ch3max` (`f-season`, … in the
/// explorer); element ids start with `id_prefix`, unique on the page.
#[component]
pub fn TrendFilterFields(
    inputs: TrendFilterInputs,
    testid_prefix: &'static str,
    id_prefix: String,
) -> impl IntoView {
    let field = |label: &'static str, name: &str, sig: RwSignal<String>, ph: &'static str| {
        view! {
            <label class="f">
                <span>{label}</span>
                <input id=format!("{id_prefix}{name}") data-testid=format!("{testid_prefix}{name}")
                    inputmode="decimal" placeholder=ph
                    prop:value=move || sig.get() on:input=move |ev| sig.set(event_target_value(&ev)) />
            </label>
        }
    };
    view! {
        <label class="f">
            <span>"Season"</span>
            <select id=format!("{id_prefix}season") data-testid=format!("{testid_prefix}season")
                on:change=move |ev| inputs.season.set(event_target_value(&ev))>
                {SeasonFilter::ALL.into_iter().map(|f| view! {
                    <option value=f.id() selected=move || SeasonFilter::from_id(&inputs.season.get()) == f>{f.label()}</option>
                }).collect_view()}
            </select>
        </label>
        {field("12-month change from %", "chmin", inputs.change_min, "min")}
        {field("to %", "chmax", inputs.change_max, "max")}
        {field("3-month change from %", "ch3min", inputs.change3_min, "min")}
        {field("to %", "ch3max", inputs.change3_max, "max")}
    }
}

/// Every keyword of `keywords` as CSV with the columns of `R` (the explorer's, a list's): filled
/// from `rows` (matched by the normalised keyword, each row's id), empty where no row is known.
/// A keyword list's export.
pub fn keywords_csv<R: TableRow>(keywords: &[String], rows: &[R]) -> String {
    let columns = R::columns();
    let exported: Vec<&Column<[R]>> = columns.iter().filter(|c| c.csv.is_some()).collect();
    let header: Vec<&str> = exported
        .iter()
        .map(|c| c.csv_header.unwrap_or(c.label))
        .collect();
    let by_keyword: std::collections::HashMap<String, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (serpkit::records::normalize_keyword(&r.id()), i))
        .collect();
    let lines = keywords.iter().map(|k| {
        match by_keyword.get(&serpkit::records::normalize_keyword(k)) {
            Some(&i) => exported
                .iter()
                .filter_map(|c| c.csv.map(|cell| cell(rows, i)))
                .collect(),
            None => {
                // The keyword column comes first (the explorer's row's, [`KeywordRow::columns`]).
                let mut cells = vec![Cell::text(k)];
                cells.resize_with(exported.len(), Cell::empty);
                cells
            }
        }
    });
    crate::components::csv::to_csv(&header, lines)
}

#[cfg(test)]
mod tests;
