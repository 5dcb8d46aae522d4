//! Deliberate faults for the simulator ([`super::sim`]): each breaks one money rule, and the
//! simulator must catch every one.

/// Deliberate faults, each one rule broken, for proving that the simulator finds them. A
/// tab carries one only with the `sim` feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mutation {
    /// Send without committing the entry first.
    SkipWriteAhead,
    /// Release the lock as soon as it is granted: check and write are no longer atomic.
    DropLock,
    /// Count an unknown outcome (a reset after sending) as not charged.
    ResetNotCharged,
    /// Check the cap of the tab's own copy of the settings, not the store's.
    CapFromTabCopy,
    /// After a wait, send where the settings point now instead of where the click was.
    RereadSettingsAfterWait,
    /// Look up stored records ignoring their source.
    ForgetSourceInKey,
    /// Send again a request whose outcome is unknown.
    RetryAfterPossibleCharge,
    /// Drop a chunk's settle commit (its entry and records).
    DropChunkCommit,
    /// Clearing History also deletes the reservations (as when History held them).
    ClearHistoryDropsReservations,
    /// A settings edit writes the tab's whole copy back.
    WholeSettingsWrite,
    /// A cap of zero means no cap.
    ZeroCapMeansNone,
    /// A reset in the future starts the period in the future.
    FutureResetStopsCounting,
    /// A reset in the future counts as a reset now (each settled entry then drops out as
    /// soon as time moves on).
    FutureResetCountsFromNow,
    /// A tab whose storage connection closed keeps buying, outside the journal.
    SendWhenStorageLost,
    /// A write-ahead that storage refused is sent all the same.
    SendDespiteRefusedWriteAhead,
    /// A charged body that is not JSON is not stored.
    DropUnreadableBody,
    /// Without Web Locks, live calls go ahead (and other tabs look closed).
    LiveWithoutLocks,
    /// What was possibly charged in an interrupted call is bought again without asking.
    RebuyPossiblyCharged,
    /// Plain http to another host is taken as confirmed: the key goes there unasked.
    KeyToUnconfirmedOrigin,
    /// A host's request is written ahead whatever it buys, reserved by its call or not.
    UnreservedHostRequest,
    /// A lock request that fails goes on without the lock (reads and decides unlocked).
    LockRequestFailsOpen,
    /// A read under the lock that fails counts as an empty store (no entries, no
    /// reservations, no records; the tab's own settings).
    FailedReadAsEmpty,
    /// A yes to possibly charged items also buys again the stored records of the request.
    ConfirmRebuysStored,
    /// The cap admits only what stays strictly below it: a request that brings the total
    /// exactly to the cap is refused.
    CapStrictlyBelow,
}

impl Mutation {
    /// Every mutation.
    pub const ALL: [Mutation; 24] = [
        Mutation::SkipWriteAhead,
        Mutation::DropLock,
        Mutation::ResetNotCharged,
        Mutation::CapFromTabCopy,
        Mutation::RereadSettingsAfterWait,
        Mutation::ForgetSourceInKey,
        Mutation::RetryAfterPossibleCharge,
        Mutation::DropChunkCommit,
        Mutation::ClearHistoryDropsReservations,
        Mutation::WholeSettingsWrite,
        Mutation::ZeroCapMeansNone,
        Mutation::FutureResetStopsCounting,
        Mutation::FutureResetCountsFromNow,
        Mutation::SendWhenStorageLost,
        Mutation::SendDespiteRefusedWriteAhead,
        Mutation::DropUnreadableBody,
        Mutation::LiveWithoutLocks,
        Mutation::RebuyPossiblyCharged,
        Mutation::KeyToUnconfirmedOrigin,
        Mutation::UnreservedHostRequest,
        Mutation::LockRequestFailsOpen,
        Mutation::FailedReadAsEmpty,
        Mutation::ConfirmRebuysStored,
        Mutation::CapStrictlyBelow,
    ];
}
