//! The price list: every operation with its price (from the core).

use leptos::prelude::*;
use serpkit::Operation;

/// Lists the 11 operations with their prices.
#[component]
pub fn PriceList() -> impl IntoView {
    view! {
        <section class="page" aria-labelledby="ops-title">
            <h1 id="ops-title">"Prices"</h1>
            <table class="ops">
                <thead>
                    <tr><th scope="col">"Operation"</th><th scope="col">"Path"</th><th scope="col">"Price"</th></tr>
                </thead>
                <tbody>
                    {Operation::ALL
                        .iter()
                        .map(|operation| {
                            let price = operation.price();
                            view! {
                                <tr>
                                    <td>{operation.title()}</td>
                                    <td><code>{operation.path()}</code></td>
                                    <td>{format!("{} {}", price.usd, price.unit.label())}</td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </section>
    }
}
