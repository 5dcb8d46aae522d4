//! Mounts the serpkit app.

/// The app's allocator: talc, as the JS package's (smaller than the standard dlmalloc: the
/// first load has a size budget).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
// SAFETY: the app runs on one thread (wasm32 without atomics), which is what `TalckWasm`
// (talc's unsynchronised wasm allocator) requires.
static ALLOCATOR: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
