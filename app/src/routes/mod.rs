//! One module per page.

pub mod home;
