//! Data compared by version, not by contents ([`Versioned`]): what the pages' memos and
//! signals hold when the data is big (decoded records, a table's rows, sort orders).

use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};
use std::sync::Arc;

/// A value with a version: two are equal when they are the same version, whatever their
/// contents, so a memo over big data (a table's rows, a sort order) never compares the data.
/// Each value wrapped gets a new version; clones share it (and the data).
pub struct Versioned<T> {
    data: Arc<T>,
    version: u64,
}

static NEXT_VERSION: AtomicU64 = AtomicU64::new(1);

impl<T> Versioned<T> {
    /// Wraps a value with a new version.
    pub fn new(value: T) -> Versioned<T> {
        Versioned {
            data: Arc::new(value),
            version: NEXT_VERSION.fetch_add(1, AtomicOrdering::Relaxed),
        }
    }

    /// The version (unique per wrapped value; a table's row keys use it).
    pub fn version(&self) -> u64 {
        self.version
    }
}

impl<T> Clone for Versioned<T> {
    fn clone(&self) -> Self {
        Versioned {
            data: self.data.clone(),
            version: self.version,
        }
    }
}

impl<T> PartialEq for Versioned<T> {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version
    }
}

impl<T> std::ops::Deref for Versioned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.data
    }
}

impl<T: Default> Default for Versioned<T> {
    fn default() -> Self {
        Versioned::new(T::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_means_the_same_version_not_the_same_contents() {
        let a = Versioned::new(vec![1, 2]);
        let b = Versioned::new(vec![1, 2]);
        assert_ne!(a.version(), b.version());
        assert!(a != b, "equal contents, other versions");
        let c = a.clone();
        assert!(a == c);
        assert_eq!(*c, [1, 2]);
    }
}
