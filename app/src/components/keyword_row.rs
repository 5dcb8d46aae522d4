//! A row of the keyword explorer (search intent, search volume, CPC, competition, the 12
//! monthly values with their trends and season, the opportunity score): its table columns,
//! CSV cells and the explorer's HTML report.

use leptos::prelude::*;
use leptos_router::components::A;
use serpkit::ops::search_volume_bulk::SearchVolumeRecord;

use crate::components::csv::Cell;
use crate::components::{fmt_change, fmt_cpc, fmt_int, Column, SortKey, Sparkline, TableRow};
use crate::paths::keyword_route;
use crate::research::intent::{self, Intents};
use crate::research::report::{self, Block, Report, Section};
use crate::research::score;
use crate::research::trends::{self, percent_bound, Season, SeasonFilter, TrendFilter};

/// A row of the explorer table.
#[derive(Clone, Debug, PartialEq)]
pub struct KeywordRow {
    /// The keyword.
    pub keyword: String,
    /// Its search intents (`research::intent`, with no brand terms: no domain is known).
    pub intent: Intents,
    /// Country code (for links).
    pub ccode: String,
    /// Search volume.
    pub volume: i64,
    /// Average CPC.
    pub cpc: f64,
    /// Competition 0..1.
    pub competition: f64,
    /// The 12 monthly searches of the window, oldest first, placed by their dates as the
    /// trend columns read them (`trends::by_date`; a missing month is 0).
    pub months: Vec<i64>,
    /// The months the window covers (`Apr 2024 – Mar 2025`; empty without months).
    pub window: String,
    /// 12-month change (`research::trends`): the latest month against the same month a year
    /// earlier when a 13th month is known, else against the window's first month.
    pub change: Option<f64>,
    /// Months between the two values [`Self::change`] compares: 12, or 11 without a 13th.
    pub change_span: u8,
    /// 3-month change: the latest 3 months' mean against the 3 before.
    pub change_3m: Option<f64>,
    /// The month (1–12) with the most searches.
    pub peak: Option<u8>,
    /// The season relative to the current month.
    pub season: Season,
    /// The opportunity score (`research::score`), set by [`score_rows`].
    pub score: Option<f64>,
}

impl KeywordRow {
    /// From a search volume record; `current_month` (1–12) places its season.
    pub fn from_record(r: &SearchVolumeRecord, ccode: &str, current_month: u8) -> KeywordRow {
        let trend = trends::trend(&r.targeted_monthly_searches, current_month);
        KeywordRow {
            keyword: r.keyword.clone(),
            intent: intent::classify(&r.keyword, &[]),
            ccode: ccode.to_string(),
            volume: r.search_volume,
            cpc: r.average_cpc,
            competition: r.competition,
            months: trends::by_date(&r.targeted_monthly_searches),
            window: trends::window_text(&r.targeted_monthly_searches),
            change: trend.change_12m,
            change_span: trend.change_span,
            change_3m: trend.change_3m,
            peak: trend.peak_month,
            season: trend.season,
            score: None,
        }
    }
}

/// Sets each row's opportunity score: `research::score` on its fixed anchors, so a row's
/// score depends on its own metrics only, not on the other rows (search volume records give
/// no keyword difficulty, so it counts for none of them).
pub fn score_rows(rows: &mut [KeywordRow], weights: &score::Weights) {
    let metrics: Vec<score::Metrics> = rows
        .iter()
        .map(|r| score::Metrics {
            volume: Some(r.volume as f64),
            cpc: Some(r.cpc),
            competition: Some(r.competition),
            difficulty: None,
        })
        .collect();
    for (row, value) in rows.iter_mut().zip(score::scores(&metrics, weights)) {
        row.score = value;
    }
}

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

/// A score as its table cell shows it (whole points, "–" when none).
pub fn score_text(score: Option<f64>) -> String {
    score.map_or_else(|| "–".into(), |s| format!("{s:.0}"))
}

/// What a 12-month change cell compares, by its span (`trends::CHANGE_RULE`, per row).
fn change_title(span: u8) -> &'static str {
    if span == 12 {
        "The latest month against the same month a year earlier"
    } else {
        "Month 12 against month 1 of the 12 months shown: an 11-month change (no 13th month is known)"
    }
}

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
                label: "Competition",
                numeric: true,
                width: "",
                key: |rows, i| SortKey::num(rows[i].competition),
                csv: Some(|rows, i| Cell::decimal(rows[i].competition, 2)),
                csv_header: None,
            },
            Column {
                id: "trend",
                label: "12 months",
                numeric: false,
                width: "",
                key: |rows, i| rows[i].change.map_or(SortKey::Missing, SortKey::num),
                csv: Some(|rows, i| {
                    Cell::text(
                        rows[i]
                            .months
                            .iter()
                            .map(i64::to_string)
                            .collect::<Vec<_>>()
                            .join(" "),
                    )
                }),
                csv_header: None,
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
                        .map_or_else(Cell::empty, |c| Cell::decimal(c, 4))
                }),
                csv_header: None,
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
                        .map_or_else(Cell::empty, |c| Cell::decimal(c, 4))
                }),
                csv_header: None,
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
            <td class="num" class:up=up class:down=self.change.is_some() && !up data-col="change" title=change_title(self.change_span)>{fmt_change(self.change)}</td>
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

/// Every keyword of `keywords` as CSV with the explorer's columns: filled from `rows` (matched
/// by the normalised keyword), empty where no row is known. A keyword list's export.
pub fn keywords_csv(keywords: &[String], rows: &[KeywordRow]) -> String {
    let columns = KeywordRow::columns();
    let exported: Vec<&Column<[KeywordRow]>> = columns.iter().filter(|c| c.csv.is_some()).collect();
    let header: Vec<&str> = exported
        .iter()
        .map(|c| c.csv_header.unwrap_or(c.label))
        .collect();
    let by_keyword: std::collections::HashMap<String, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (serpkit::records::normalize_keyword(&r.keyword), i))
        .collect();
    let lines = keywords.iter().map(|k| {
        match by_keyword.get(&serpkit::records::normalize_keyword(k)) {
            Some(&i) => exported
                .iter()
                .filter_map(|c| c.csv.map(|cell| cell(rows, i)))
                .collect(),
            None => {
                // The keyword column comes first ([`KeywordRow::columns`]).
                let mut cells = vec![Cell::text(k)];
                cells.resize_with(exported.len(), Cell::empty);
                cells
            }
        }
    });
    crate::components::csv::to_csv(&header, lines)
}

/// Which 12 months the rows' monthly searches cover, for a report: `Monthly searches: Apr
/// 2024 – Mar 2025.`; empty without monthly data. Decided: rows bought at different times can
/// end in different months, so each window is named with its keyword count (the most common
/// first, at most 3 and how many others), rather than one window that is wrong for some rows.
pub fn covered_text(rows: &[KeywordRow]) -> String {
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for r in rows.iter().filter(|r| !r.window.is_empty()) {
        *counts.entry(&r.window).or_default() += 1;
    }
    let mut windows: Vec<(&str, usize)> = counts.into_iter().collect();
    windows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    match windows.as_slice() {
        [] => String::new(),
        [(w, _)] => format!("Monthly searches: {w}."),
        more => {
            let named: Vec<String> = more
                .iter()
                .take(3)
                .map(|(w, n)| {
                    let unit = if *n == 1 { "keyword" } else { "keywords" };
                    format!("{w} ({} {unit})", fmt_int(*n as i64))
                })
                .collect();
            let others = more.len().saturating_sub(3);
            let tail = if others > 0 {
                format!(" and {others} other windows")
            } else {
                String::new()
            };
            format!("Monthly searches: {}{tail}.", named.join(", "))
        }
    }
}

/// Keywords per intent ("Informational 12, Navigational 0, …"; a keyword with several
/// intents counts in each), for the report's summary.
fn intent_counts(rows: &[KeywordRow]) -> String {
    let sets: Vec<Intents> = rows.iter().map(|r| r.intent).collect();
    intent::Intent::ALL
        .iter()
        .zip(intent::distribution(&sets, &[]))
        .map(|(x, (n, _))| format!("{} {}", x.label(), fmt_int(n as i64)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Rows in a report's table: the first this many by volume (the CSV export has every row).
pub const REPORT_ROWS: usize = 500;

/// The explorer's report: summary figures, the top keywords by volume as bars, the keywords
/// with their trends (sparklines), season and score, and the rules. `extra` sections (the
/// keyword groups) follow the table.
pub fn keyword_report(
    rows: &[KeywordRow],
    country: &str,
    score_formula: &str,
    date: &str,
    extra: Vec<Section>,
) -> Report {
    let total: i64 = rows.iter().map(|r| r.volume).sum();
    let seasonal = rows
        .iter()
        .filter(|r| {
            matches!(
                r.season,
                Season::InSeason | Season::Approaching | Season::OutOfSeason
            )
        })
        .count();
    let in_season = rows.iter().filter(|r| r.season == Season::InSeason).count();
    let mut by_volume: Vec<&KeywordRow> = rows.iter().collect();
    by_volume.sort_by(|a, b| {
        b.volume
            .cmp(&a.volume)
            .then_with(|| a.keyword.cmp(&b.keyword))
    });
    let shown = by_volume.len().min(REPORT_ROWS);
    let table = by_volume[..shown]
        .iter()
        .map(|r| {
            vec![
                report::Cell::from(r.keyword.as_str()),
                fmt_int(r.volume).into(),
                fmt_cpc(r.cpc).into(),
                format!("{:.2}", r.competition).into(),
                report::Cell::Spark(r.months.clone()),
                fmt_change(r.change).into(),
                fmt_change(r.change_3m).into(),
                trends::month_short(r.peak).into(),
                r.season.label().into(),
                score_text(r.score).into(),
                r.intent.text().into(),
            ]
        })
        .collect();
    let covered = covered_text(rows);
    let mut notes = vec![
        covered.clone(),
        trends::CHANGE_RULE.to_string(),
        trends::SEASON_RULE.to_string(),
        format!("{} {}", intent::RULE, intent::NO_BRAND_NOTE),
        score_formula.to_string(),
    ];
    notes.retain(|n| !n.is_empty());
    if shown < rows.len() {
        notes.insert(
            0,
            format!(
                "The first {shown} of {} keywords by volume; the CSV export has every row.",
                fmt_int(rows.len() as i64)
            ),
        );
    }
    let mut sections = vec![
        Section {
            heading: "Summary".into(),
            notes: Vec::new(),
            blocks: vec![
                Block::Figures(vec![
                    ("Keywords".into(), fmt_int(rows.len() as i64)),
                    ("Total monthly volume".into(), fmt_int(total)),
                    ("Seasonal".into(), fmt_int(seasonal as i64)),
                    ("In season now".into(), fmt_int(in_season as i64)),
                    ("By intent".into(), intent_counts(rows)),
                ]),
                Block::Bars {
                    title: "Top keywords by monthly search volume".into(),
                    bars: by_volume
                        .iter()
                        .take(20)
                        .map(|r| (r.keyword.clone(), r.volume as f64))
                        .collect(),
                },
            ],
        },
        Section {
            heading: "Keywords".into(),
            notes,
            blocks: vec![Block::Table {
                caption: format!("Search intent, volume, trends and opportunity ({country})"),
                headers: [
                    "Keyword",
                    "#Volume",
                    "#CPC",
                    "#Competition",
                    "12 months",
                    "#12-month change",
                    "#3-month change",
                    "Peak",
                    "Season",
                    "#Opportunity",
                    "Intent",
                ]
                .map(String::from)
                .to_vec(),
                rows: table,
            }],
        },
    ];
    sections.extend(extra);
    Report {
        title: format!(
            "Keyword research: {} keywords ({country})",
            fmt_int(rows.len() as i64)
        ),
        subtitle: format!("Exported {date} from search volumes already bought. {covered}")
            .trim_end()
            .to_string(),
        sections,
    }
}

#[cfg(test)]
mod tests;
