//! (being written: issue #18)
