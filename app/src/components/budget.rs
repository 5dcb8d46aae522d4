//! What is left of the budget cap, for the meter and for priced bundles (issue 43): a bundle
//! of calls is priced as a whole against what is left, and the meter warns before the cap.

use leptos::prelude::*;
use serpkit::Usd;

use crate::workspace::Workspace;

/// The meter warns once this share of the cap (in percent) is spent or possibly charged.
/// Decided: 80 %, the example, the point where one more section may not fit.
pub const WARN_AT_PERCENT: i64 = 80;

/// The budget now: the cap of the period and what is left of it (spent and possibly charged
/// money counted, as the cap counts them); none without a cap. Tracked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// The cap for the period (Settings).
    pub cap: Usd,
    /// The cap less what is spent and possibly charged (zero when over).
    pub left: Usd,
}

impl Budget {
    /// The budget of `workspace` now, tracked; none without a cap.
    pub fn now(workspace: Workspace) -> Option<Budget> {
        let cap = workspace
            .settings
            .with(|s| s.budget.trim().parse::<Usd>().ok())
            .filter(|c| *c > Usd::ZERO)?;
        let used = workspace.spent.get() + workspace.possibly_charged.get();
        Some(Budget::of(cap, used))
    }

    /// The budget of `cap` with `used` spent or possibly charged.
    pub fn of(cap: Usd, used: Usd) -> Budget {
        Budget {
            cap,
            left: cap.saturating_sub(used),
        }
    }

    /// The share of the cap used, in whole percent (rounded down).
    pub fn used_percent(self) -> i64 {
        let used = self.cap.saturating_sub(self.left);
        used.micros() * 100 / self.cap.micros().max(1)
    }

    /// True once [`WARN_AT_PERCENT`] of the cap is used.
    pub fn warns(self) -> bool {
        self.used_percent() >= WARN_AT_PERCENT
    }

    /// Whether `price` fits in what is left.
    pub fn admits(self, price: Usd) -> bool {
        price <= self.left
    }
}

/// The meter's "$0.35 left", and the warning once [`WARN_AT_PERCENT`] of the cap is used.
#[component]
pub fn BudgetLeft(workspace: Workspace) -> impl IntoView {
    let budget = Memo::new(move |_| Budget::now(workspace));
    move || {
        budget.get().map(|b| {
            let warn = b.warns();
            view! {
                <span class="spend" class:warn=warn data-testid="budget-left" data-warn=warn.to_string()
                    title="What is left of the budget cap for this period (Settings); spent and possibly charged money counts">
                    <strong>{b.left.to_string()}</strong>" left"
                    {warn.then(|| format!(" · {} % of the {} cap used", b.used_percent(), b.cap))}
                </span>
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_warns_and_admits() {
        let usd = Usd::from_micros;
        let b = Budget::of(usd(500_000), usd(150_000));
        assert_eq!(b.left, usd(350_000));
        assert!(!b.warns());
        assert!(b.admits(usd(350_000)));
        assert!(!b.admits(usd(1_150_000)));
        assert!(Budget::of(usd(500_000), usd(400_000)).warns());
        assert_eq!(Budget::of(usd(500_000), usd(430_000)).used_percent(), 86);
        assert!(!Budget::of(usd(500_000), usd(399_999)).warns());
        assert_eq!(Budget::of(usd(500_000), usd(600_000)).left, Usd::ZERO);
    }
}
