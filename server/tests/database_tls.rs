//! TLS to PostgreSQL as `sslmode` says, against the test cluster (which `cargo xtask server`
//! starts with a certificate for `localhost` from a CA of its own, whose path is read here
//! from `SHOW ssl_ca_file`): `verify-full` checks chain and host name, `verify-ca` the chain only,
//! `require` encrypts unchecked, `disable` does not encrypt.

mod common;

use common::{post, Team};
use serde_json::json;
use serpkit_server::db::Database;

/// Whether a connection made with `url` is encrypted; `Err` when it cannot be made.
async fn encrypted(url: &str) -> Result<bool, String> {
    let pool = Database::new(url, None)?.pool(1)?;
    let c = pool
        .get()
        .await
        .map_err(|e| serpkit_server::errors::cause(&e))?;
    let row = c
        .query_one(
            "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
            &[],
        )
        .await
        .map_err(|e| serpkit_server::errors::cause(&e))?;
    Ok(row.get(0))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sslmode_is_honoured_and_verify_full_checks_the_host_name() {
    let mut team = Team::new().await;
    let c = team.pool.get().await.unwrap();
    let on: String = c.query_one("SHOW ssl", &[]).await.unwrap().get(0);
    assert_eq!(
        on, "on",
        "the test cluster has no TLS (`cargo xtask server` gives it a certificate)"
    );
    let ca: String = c.query_one("SHOW ssl_ca_file", &[]).await.unwrap().get(0);
    drop(c);
    // `host=127.0.0.1 … dbname=…`: the certificate names `localhost` only.
    let by_ip = team.database.clone();
    let by_name = by_ip.replace("host=127.0.0.1", "host=localhost");
    let root = format!("sslrootcert={ca}");
    assert!(encrypted(&format!("{by_name} sslmode=verify-full {root}"))
        .await
        .unwrap());
    let wrong_name = encrypted(&format!("{by_ip} sslmode=verify-full {root}")).await;
    assert!(
        wrong_name.is_err(),
        "verify-full accepted a certificate for another name"
    );
    assert!(encrypted(&format!("{by_ip} sslmode=verify-ca {root}"))
        .await
        .unwrap());
    let unknown = encrypted(&format!("{by_name} sslmode=verify-full")).await;
    assert!(unknown.is_err(), "verify-full accepted an unknown issuer");
    assert!(encrypted(&format!("{by_ip} sslmode=require"))
        .await
        .unwrap());
    assert!(!encrypted(&format!("{by_ip} sslmode=disable"))
        .await
        .unwrap());

    // A server process on a verify-full connection serves a member.
    team.database = format!("{by_name} sslmode=verify-full {root}");
    let token = team.member("ana", None).await;
    let url = team.start_default();
    let body = json!({"key": token, "keywords": ["over tls to postgres"], "ccode": "US"});
    let reply = post(&url, "/v1/search_volume/bulk", &body).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(team.ledger().charged().count(), 1);
}
