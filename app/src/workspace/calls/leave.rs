//! The browser's own "leave site?" prompt while a live call runs: registered only then, so
//! the page enters the back/forward cache whenever no paid answer is on its way.

use std::cell::RefCell;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The registered `beforeunload` listener.
type Prompt = Closure<dyn Fn(web_sys::Event)>;

thread_local! {
    static GUARD: RefCell<Option<Prompt>> = const { RefCell::new(None) };
}

/// Registers the `beforeunload` prompt when `on`, removes it when not.
pub(super) fn guard(on: bool) {
    let Some(window) = web_sys::window() else {
        return;
    };
    GUARD.with(|g| {
        let mut g = g.borrow_mut();
        match (on, g.is_some()) {
            (true, false) => {
                let prompt = Prompt::new(|ev: web_sys::Event| {
                    ev.prevent_default();
                    // Older Chromium asks only when `returnValue` is set.
                    let _ = js_sys::Reflect::set(&ev, &"returnValue".into(), &"".into());
                });
                let _ = window.add_event_listener_with_callback(
                    "beforeunload",
                    prompt.as_ref().unchecked_ref(),
                );
                *g = Some(prompt);
            }
            (false, true) => {
                if let Some(prompt) = g.take() {
                    let _ = window.remove_event_listener_with_callback(
                        "beforeunload",
                        prompt.as_ref().unchecked_ref(),
                    );
                }
            }
            _ => {}
        }
    });
}
