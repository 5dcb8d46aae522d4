//! The start page: every operation with its price.

use leptos::prelude::*;
use serpkit::Operation;

/// Lists the 11 operations with their prices.
#[component]
pub fn Home() -> impl IntoView {
    view! {
        <section aria-labelledby="ops-title">
            <h2 id="ops-title">"Operations"</h2>
            <table class="ops">
                <thead>
                    <tr><th scope="col">"Operation"</th><th scope="col">"Path"</th><th scope="col">"Price"</th></tr>
                </thead>
                <tbody>
                    {Operation::ALL
                        .iter()
                        .map(|op| {
                            let price = op.price();
                            view! {
                                <tr>
                                    <td>{op.title()}</td>
                                    <td><code>{op.path()}</code></td>
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
