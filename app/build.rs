//! Keeps the linker's relocations in the app's wasm, which `cargo xtask app-wasm` needs to split
//! it into one chunk per page (see `routes::page!`). Other targets are untouched.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo::rustc-link-arg-bins=--emit-relocs");
    }
}
