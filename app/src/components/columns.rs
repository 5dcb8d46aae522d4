//! The table engine shared by the paged table ([`super::table`]) and the virtual table
//! ([`super::virtual_table`]): one column type, one comparator, and sorting an index of
//! rows, never the rows.
//!
//! A table's data is any `D` with rows addressed by position (a page's `[Row]`, or columnar
//! data such as the 100,000 ranked keywords). A [`Column`] reads row `i`'s [`SortKey`];
//! [`SortOrder::ascending`] orders the positions by it, once per column (the virtual
//! tables cache it in a [`SortCache`]); [`ordered`] turns it into the shown order of a
//! direction and a filter.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::OnceLock;

use super::csv::Cell;

/// What a column sorts a row by.
#[derive(Clone, Debug, PartialEq)]
pub enum SortKey<'a> {
    /// A number.
    Num(f64),
    /// Text (compared case-insensitively).
    Text(Cow<'a, str>),
    /// No value: sorts last in both directions.
    Missing,
}

impl<'a> SortKey<'a> {
    /// A number; NaN or infinite is a missing value.
    pub fn num(v: f64) -> SortKey<'a> {
        if v.is_finite() {
            SortKey::Num(v)
        } else {
            SortKey::Missing
        }
    }

    /// A whole number.
    pub fn int(v: i64) -> SortKey<'a> {
        SortKey::Num(v as f64)
    }

    /// Text, borrowed.
    pub fn text(s: &'a str) -> SortKey<'a> {
        SortKey::Text(Cow::Borrowed(s))
    }

    /// Text lower-cased (once per row before a sort; borrowed when it has no upper case).
    fn folded(self) -> SortKey<'a> {
        match self {
            SortKey::Text(t) if t.chars().any(char::is_uppercase) => {
                SortKey::Text(Cow::Owned(t.to_lowercase()))
            }
            key => key,
        }
    }

    fn is_missing(&self) -> bool {
        matches!(self, SortKey::Missing)
    }

    /// The one comparator of both tables, over [`Self::folded`] keys: numbers by value,
    /// text by its lower case, numbers before text, missing values last.
    pub fn compare(&self, other: &SortKey<'_>) -> Ordering {
        match (self, other) {
            (SortKey::Num(a), SortKey::Num(b)) => a.total_cmp(b),
            (SortKey::Text(a), SortKey::Text(b)) => a.cmp(b),
            (SortKey::Missing, SortKey::Missing) => Ordering::Equal,
            (SortKey::Missing, _) => Ordering::Greater,
            (_, SortKey::Missing) => Ordering::Less,
            (SortKey::Num(_), SortKey::Text(_)) => Ordering::Less,
            (SortKey::Text(_), SortKey::Num(_)) => Ordering::Greater,
        }
    }
}

/// How a column reads row `i`'s sort key.
pub type KeyFn<D> = fn(&D, usize) -> SortKey<'_>;
/// How a column reads row `i`'s CSV value.
pub type CsvFn<D> = fn(&D, usize) -> Cell;

/// One column of either table: id (sort state, URLs, test ids), header, how it sorts, and
/// how it exports.
pub struct Column<D: ?Sized> {
    /// Stable id (`volume`).
    pub id: &'static str,
    /// Header text.
    pub label: &'static str,
    /// Right-aligned numbers (sorted high-to-low first).
    pub numeric: bool,
    /// CSS grid track size in the virtual table (`minmax(12rem, 2fr)`, `6rem`); the paged
    /// table sizes its columns itself (`""`).
    pub width: &'static str,
    /// Sort key of row `i`.
    pub key: fn(&D, usize) -> SortKey<'_>,
    /// CSV value of row `i` (`None`: not exported).
    pub csv: Option<fn(&D, usize) -> Cell>,
    /// CSV header when it is not the label (`Search volume` for `Volume`).
    pub csv_header: Option<&'static str>,
}

impl<D: ?Sized> Clone for Column<D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<D: ?Sized> Copy for Column<D> {}

// Constructors for the column kinds every analysis table repeats, so a table states only
// how it reads its rows. They are `const` and used in `const` tables: no code is emitted.
impl<D: ?Sized> Column<D> {
    /// A column exported under its label.
    pub const fn new(
        id: &'static str,
        label: &'static str,
        numeric: bool,
        width: &'static str,
        key: KeyFn<D>,
        csv: Option<CsvFn<D>>,
    ) -> Column<D> {
        Column {
            id,
            label,
            numeric,
            width,
            key,
            csv,
            csv_header: None,
        }
    }

    /// The `keyword` column.
    pub const fn keyword(width: &'static str, key: KeyFn<D>, csv: Option<CsvFn<D>>) -> Column<D> {
        Column::new("keyword", "Keyword", false, width, key, csv)
    }

    /// The `url` column of a keyword's ranking URL, exported as `URL`.
    pub const fn ranking_url(
        width: &'static str,
        key: KeyFn<D>,
        csv: Option<CsvFn<D>>,
    ) -> Column<D> {
        Column {
            csv_header: Some("URL"),
            ..Column::new("url", "Ranking URL", false, width, key, csv)
        }
    }

    /// The search `volume` column.
    pub const fn volume(key: KeyFn<D>, csv: Option<CsvFn<D>>) -> Column<D> {
        Column::new("volume", "Volume", true, "6.5rem", key, csv)
    }
}

/// The rows at `order` as CSV, one column per exported column, in table order.
pub fn to_csv<D: ?Sized>(columns: &[Column<D>], data: &D, order: &[u32]) -> String {
    let exported: Vec<&Column<D>> = columns.iter().filter(|c| c.csv.is_some()).collect();
    let header: Vec<&str> = exported
        .iter()
        .map(|c| c.csv_header.unwrap_or(c.label))
        .collect();
    let rows = order.iter().map(|&i| {
        exported
            .iter()
            .filter_map(|c| c.csv.map(|cell| cell(data, i as usize)))
            .collect::<Vec<_>>()
    });
    super::csv::to_csv(&header, rows)
}

/// Rows in ascending order of a column: row positions, those with a value first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SortOrder {
    /// Row positions, ascending; the missing values at the end, in row order.
    rows: Vec<u32>,
    /// How many rows have a value (the first `present` of `rows`).
    present: usize,
}

impl SortOrder {
    /// The row positions, ascending.
    pub fn rows(&self) -> &[u32] {
        &self.rows
    }

    /// Rows `0..len` of `data` ordered by `column` ([`SortKey::compare`]; ties keep row
    /// order). Keys are read (and lower-cased) once per row, not twice per comparison.
    pub fn ascending<D: ?Sized>(data: &D, len: usize, column: &Column<D>) -> SortOrder {
        let keys: Vec<SortKey<'_>> = (0..len).map(|i| (column.key)(data, i).folded()).collect();
        let rows = crate::sort::order(len, &|a, b| keys[a].compare(&keys[b]));
        let present = keys.iter().filter(|k| !k.is_missing()).count();
        SortOrder { rows, present }
    }
}

/// The shown order: by `order` (row order when `None`), descending or not, keeping the rows
/// whose `mask` entry is true (a missing entry counts as false; no mask keeps every row).
/// Missing values stay last when descending.
pub fn ordered(
    order: Option<&SortOrder>,
    descending: bool,
    mask: Option<&[bool]>,
    len: usize,
) -> Vec<u32> {
    let keep = |i: &u32| mask.is_none_or(|m| m.get(*i as usize).copied().unwrap_or(false));
    match order {
        None => (0..len as u32).filter(keep).collect(),
        Some(o) if descending => {
            let (present, missing) = o.rows.split_at(o.present.min(o.rows.len()));
            present
                .iter()
                .rev()
                .chain(missing)
                .copied()
                .filter(keep)
                .collect()
        }
        Some(o) => o.rows.iter().copied().filter(keep).collect(),
    }
}

/// The ascending order of each column of some data, computed once per column on first use.
#[derive(Default)]
pub struct SortCache {
    orders: Vec<OnceLock<SortOrder>>,
}

impl SortCache {
    /// A cache for `columns` columns.
    pub fn new(columns: usize) -> SortCache {
        SortCache {
            orders: (0..columns).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The ascending order of the column with id `id` of `columns` (`None`: no such column).
    pub fn get<D: ?Sized>(
        &self,
        columns: &[Column<D>],
        data: &D,
        len: usize,
        id: &str,
    ) -> Option<&SortOrder> {
        let i = columns.iter().position(|c| c.id == id)?;
        let slot = self.orders.get(i)?;
        Some(slot.get_or_init(|| SortOrder::ascending(data, len, &columns[i])))
    }

    /// Computes every order not computed yet (idle warm-up).
    pub fn warm<D: ?Sized>(&self, columns: &[Column<D>], data: &D, len: usize) {
        for c in columns {
            let _ = self.get(columns, data, len, c.id);
        }
    }
}

/// The shown order of `data` sorted by `sort` (column id, descending) through `cache`, and
/// filtered by `mask`.
pub fn sorted_view<D: ?Sized>(
    cache: &SortCache,
    columns: &[Column<D>],
    data: &D,
    len: usize,
    sort: Option<&(String, bool)>,
    mask: Option<&[bool]>,
) -> Vec<u32> {
    let order = sort.and_then(|(id, _)| cache.get(columns, data, len, id));
    let descending = sort.is_some_and(|s| s.1);
    ordered(order, descending, mask, len)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NUMBER: Column<[f64]> = Column {
        id: "n",
        label: "N",
        numeric: true,
        width: "",
        key: |v, i| SortKey::num(v[i]),
        csv: None,
        csv_header: None,
    };
    const TEXT: Column<[&str]> = Column {
        id: "t",
        label: "T",
        numeric: false,
        width: "",
        key: |v, i| SortKey::text(v[i]),
        csv: None,
        csv_header: None,
    };

    const INT: Column<[i64]> = Column {
        id: "i",
        label: "I",
        numeric: true,
        width: "",
        key: |v, i| SortKey::int(v[i]),
        csv: None,
        csv_header: None,
    };
    const STRING: Column<[String]> = Column {
        id: "s",
        label: "S",
        numeric: false,
        width: "",
        key: |v, i| SortKey::text(&v[i]),
        csv: None,
        csv_header: None,
    };

    fn rows<D: ?Sized>(data: &D, len: usize, column: &Column<D>) -> Vec<u32> {
        SortOrder::ascending(data, len, column).rows
    }

    #[test]
    fn perms_are_stable_and_ordered() {
        assert_eq!(rows(&[3, 1, 3, 2][..], 4, &INT), vec![1, 3, 0, 2]);
        assert_eq!(rows(&[f64::NAN, 1.0, 0.5][..], 3, &NUMBER), vec![2, 1, 0]);
        let t = ["b".to_string(), "a".into(), "b".into()];
        assert_eq!(rows(&t[..], 3, &STRING), vec![1, 0, 2]);
        assert_eq!(rows(&[][..], 0, &INT), Vec::<u32>::new());
    }

    #[test]
    fn order_and_mask() {
        let p = SortOrder {
            rows: vec![2, 0, 1],
            present: 3,
        };
        let m = [true, false, true];
        assert_eq!(ordered(Some(&p), false, Some(&m), 3), vec![2, 0]);
        assert_eq!(ordered(Some(&p), true, Some(&m), 3), vec![0, 2]);
        assert_eq!(ordered(None, false, Some(&m), 3), vec![0, 2]);
        assert_eq!(ordered(None, true, Some(&[true]), 3), vec![0]);
    }

    #[test]
    fn keys_compare() {
        let ord = |a: SortKey, b: SortKey| a.folded().compare(&b.folded());
        assert_eq!(ord(SortKey::Num(1.0), SortKey::Num(2.0)), Ordering::Less);
        assert_eq!(
            ord(SortKey::num(f64::NAN), SortKey::Num(2.0)),
            Ordering::Greater
        );
        assert_eq!(
            ord(SortKey::text("b"), SortKey::text("A")),
            Ordering::Greater
        );
        assert_eq!(ord(SortKey::text("a"), SortKey::text("B")), Ordering::Less);
    }

    #[test]
    fn orders_are_stable_with_missing_values_last() {
        let values = [3.0, f64::NAN, 1.0, 3.0, 2.0];
        let order = SortOrder::ascending(&values[..], values.len(), &NUMBER);
        assert_eq!(ordered(Some(&order), false, None, 5), vec![2, 4, 0, 3, 1]);
        // Descending: ties keep reversed row order, the missing value stays last.
        assert_eq!(ordered(Some(&order), true, None, 5), vec![3, 0, 4, 2, 1]);
        let mask = [true, true, false, true, false];
        assert_eq!(ordered(Some(&order), false, Some(&mask), 5), vec![0, 3, 1]);
        assert_eq!(ordered(None, true, Some(&mask[..2]), 5), vec![0, 1]);
        let words = ["b", "A", "B"];
        let order = SortOrder::ascending(&words[..], 3, &TEXT);
        assert_eq!(ordered(Some(&order), false, None, 3), vec![1, 0, 2]);
        let cache = SortCache::new(1);
        assert_eq!(
            sorted_view(
                &cache,
                &[TEXT],
                &words[..],
                3,
                Some(&("t".into(), true)),
                None
            ),
            vec![2, 0, 1]
        );
        assert_eq!(cache.get(&[TEXT], &words[..], 3, "nope"), None);
    }
}
