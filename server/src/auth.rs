//! Member tokens: `tm_<member id>_<64 hex digits of randomness>`. Only their sha256 is stored;
//! a presented token's hash is compared with the stored one in constant time, and a revoked
//! member's token is refused like an unknown one.

use deadpool_postgres::Pool;
use sha2::{Digest, Sha256};

use crate::errors::cause;

/// A member the token named, active.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// Its own cap in micro-dollars (`None`: only the team's).
    pub cap_micros: Option<i64>,
}

/// Why a token is refused. One message for every case, so a caller learns nothing about
/// which members exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuthError {
    /// Missing, malformed, unknown, wrong or revoked.
    Refused,
    /// The database could not be asked.
    Database(String),
}

/// The sha256 of a token, as stored.
pub fn hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// A new token for member `id` (32 bytes from the operating system's generator).
pub fn new_token(id: i64) -> Result<String, String> {
    let mut secret = [0u8; 32];
    getrandom::fill(&mut secret).map_err(|e| format!("no randomness: {e}"))?;
    let hex: String = secret.iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!("tm_{id}_{hex}"))
}

/// The member id a token claims (not yet checked).
fn claimed_id(token: &str) -> Option<i64> {
    let rest = token.strip_prefix("tm_")?;
    let (id, secret) = rest.split_once('_')?;
    (secret.len() == 64).then_some(())?;
    id.parse().ok()
}

/// Equal byte strings, in time that depends only on their lengths (the hashes' is fixed).
pub fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The active member `token` belongs to.
pub async fn member(pool: &Pool, token: &str) -> Result<Member, AuthError> {
    let id = claimed_id(token).ok_or(AuthError::Refused)?;
    let c = pool
        .get()
        .await
        .map_err(|e| AuthError::Database(cause(&e)))?;
    // Prepared once per connection (every call asks: a statement prepared per query is a
    // second round trip).
    let statement = c
        .prepare_cached(
            "SELECT name, token_hash, cap_micros FROM members WHERE id = $1 AND revoked_at IS NULL",
        )
        .await
        .map_err(|e| AuthError::Database(cause(&e)))?;
    let row = c
        .query_opt(&statement, &[&id])
        .await
        .map_err(|e| AuthError::Database(cause(&e)))?
        .ok_or(AuthError::Refused)?;
    let stored: Vec<u8> = row.get(1);
    if !same(&stored, &hash(token)) {
        return Err(AuthError::Refused);
    }
    Ok(Member {
        id,
        name: row.get(0),
        cap_micros: row.get(2),
    })
}

/// Adds a member; returns its token (shown once: only its hash is kept).
pub async fn add_member(
    pool: &Pool,
    name: &str,
    cap_micros: Option<i64>,
    now: i64,
) -> Result<String, String> {
    let pg = |e: tokio_postgres::Error| format!("database: {}", cause(&e));
    if name.trim().is_empty() || name.chars().any(char::is_control) {
        return Err(format!(
            "{name:?}: a member's name is not empty and has no control characters"
        ));
    }
    let mut c = pool
        .get()
        .await
        .map_err(|e| format!("database: {}", cause(&e)))?;
    let tx = c.transaction().await.map_err(pg)?;
    // Decided: a name stays with its member, revoked or not (the journal and the team's
    // purchases name it), so it is never given to a second member.
    let taken = tx
        .query_opt(
            "SELECT revoked_at IS NULL FROM members WHERE name = $1",
            &[&name],
        )
        .await
        .map_err(pg)?;
    match taken.map(|r| r.get::<_, bool>(0)) {
        Some(true) => {
            return Err(format!(
                "a member named {name:?} exists (`rotate-token {name}` gives it a new token)"
            ))
        }
        Some(false) => {
            return Err(format!(
                "{name:?} was a member and was revoked; a name stays with its member's journal, so choose another name"
            ))
        }
        None => {}
    }
    // The id is in the token, so the row is written first and its hash set once known.
    let id: i64 = tx
        .query_one(
            "INSERT INTO members (name, token_hash, cap_micros, created_at)
             VALUES ($1, ''::bytea, $2, $3) RETURNING id",
            &[&name, &cap_micros, &now],
        )
        .await
        .map_err(|e| match e.code() {
            Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION) => {
                format!("a member named {name:?} was added meanwhile")
            }
            _ => pg(e),
        })?
        .get(0);
    let token = new_token(id)?;
    tx.execute(
        "UPDATE members SET token_hash = $2 WHERE id = $1",
        &[&id, &hash(&token)],
    )
    .await
    .map_err(pg)?;
    tx.commit().await.map_err(pg)?;
    Ok(token)
}

/// Revokes a member's token (its entries stay, counted in the budget). False: no such
/// active member.
pub async fn revoke(pool: &Pool, name: &str, now: i64) -> Result<bool, String> {
    let c = pool
        .get()
        .await
        .map_err(|e| format!("database: {}", cause(&e)))?;
    let n = c
        .execute(
            "UPDATE members SET revoked_at = $2 WHERE name = $1 AND revoked_at IS NULL",
            &[&name, &now],
        )
        .await
        .map_err(|e| format!("database: {}", cause(&e)))?;
    Ok(n == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_name_their_member_and_compare_whole() {
        let t = new_token(42).unwrap();
        assert_eq!(claimed_id(&t), Some(42));
        assert_ne!(t, new_token(42).unwrap());
        assert_eq!(claimed_id("tm_42_short"), None);
        assert_eq!(claimed_id("sandbox-test-key"), None);
        assert!(same(&hash(&t), &hash(&t)));
        let mut other = t.clone();
        other.pop();
        other.push('x');
        assert!(!same(&hash(&t), &hash(&other)));
        assert!(!same(b"ab", b"a"));
    }
}
