//! The operator's side: every administration command of `serpkit-server`, its clear errors,
//! and the safe defaults at start.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::Team;
use serpkit_server::auth;

/// Runs `serpkit-server args…` on the team's database.
fn cli(team: &Team, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_serpkit-server"))
        .args(args)
        .env("DATABASE_URL", &team.database)
        .output()
        .expect("run serpkit-server")
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn failed(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn token_of(stdout: &str) -> String {
    stdout
        .trim()
        .strip_prefix("member token: ")
        .unwrap_or_else(|| panic!("{stdout}"))
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_lists_every_command() {
    let team = Team::new().await;
    let help = ok(&cli(&team, &["--help"]));
    for command in [
        "serve",
        "run-schedules",
        "members",
        "add-member",
        "revoke-member",
        "rotate-token",
        "member-cap",
        "budget",
        "schedules",
        "delete-schedule",
        "retention",
        "--header-timeout",
        "--body-timeout",
        "--upstream-timeout",
        "--max-connections",
        "--grace",
        "--upstream-ca",
        "--database-ca",
    ] {
        assert!(
            help.contains(&format!("  serpkit-server {command}")) || help.contains(command),
            "{command} missing from --help"
        );
    }
    assert!(failed(&cli(&team, &["no-such-command"])).contains("--help"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn members_are_added_listed_capped_rotated_and_revoked() {
    let team = Team::new().await;
    let ana = token_of(&ok(&cli(&team, &["add-member", "ana", "--cap", "1.5"])));
    ok(&cli(&team, &["add-member", "bob"]));
    // A taken name says so, an active one and a revoked one alike.
    let taken = failed(&cli(&team, &["add-member", "ana"]));
    assert!(taken.contains("a member named \"ana\" exists"), "{taken}");
    ok(&cli(&team, &["revoke-member", "bob"]));
    let revoked = failed(&cli(&team, &["add-member", "bob"]));
    assert!(revoked.contains("was revoked"), "{revoked}");
    assert!(!revoked.contains("db error"), "{revoked}");
    // A new token replaces the old one at once.
    let rotated = token_of(&ok(&cli(&team, &["rotate-token", "ana"])));
    assert_ne!(rotated, ana);
    assert!(auth::member(&team.pool, &ana).await.is_err());
    assert_eq!(
        auth::member(&team.pool, &rotated).await.unwrap().name,
        "ana"
    );
    assert!(failed(&cli(&team, &["rotate-token", "bob"])).contains("no active member"));
    ok(&cli(&team, &["member-cap", "ana", "0.25"]));
    let list = ok(&cli(&team, &["members"]));
    let rows: Vec<Vec<&str>> = list.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(
        rows[0],
        [
            "name",
            "state",
            "cap",
            "spent",
            "possibly_charged",
            "created_at"
        ]
    );
    assert_eq!(
        rows[1][..5],
        ["ana", "active", "0.2500", "0.0000", "0.0000"],
        "{list}"
    );
    assert_eq!(rows[2][..3], ["bob", "revoked", "none"], "{list}");
    ok(&cli(&team, &["member-cap", "ana", ""]));
    assert!(ok(&cli(&team, &["members"])).contains("ana\tactive\tnone"));
    assert!(ok(&cli(&team, &["budget", "--cap", "20", "--period", "day"])).contains("per day"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schedules_are_listed_and_deleted_and_old_runs_pruned() {
    let team = Team::new().await;
    team.member("ana", None).await;
    let day = 86_400_000i64;
    let now = serpkit_server::now_ms();
    let c = team.pool.get().await.unwrap();
    let id: i64 = c
        .query_one(
            "INSERT INTO schedules (member_id, operation, body, every, next_at, created_at)
             SELECT id, 'ranked-keywords/domain', '{}', 'day', $1, $1 FROM members
             RETURNING id",
            &[&now],
        )
        .await
        .unwrap()
        .get(0);
    for (at, body) in [(now - 40 * day, "old"), (now - day, "recent")] {
        c.execute(
            "INSERT INTO schedule_runs (schedule_id, at, status, cost_micros, body)
             VALUES ($1, $2, 200, 1, $3)",
            &[&id, &at, &body],
        )
        .await
        .unwrap();
    }
    let list = ok(&cli(&team, &["schedules"]));
    assert!(
        list.contains(&format!(
            "{id}\tana\tranked-keywords/domain\tday\t{now}\t2\t9"
        )),
        "{list}"
    );
    assert!(ok(&cli(&team, &["retention"])).contains("for ever"));
    let applied = ok(&cli(&team, &["retention", "--days", "30", "--apply"]));
    assert!(
        applied.contains("kept 30 days") && applied.contains("deleted 1 runs"),
        "{applied}"
    );
    assert_eq!(team.number("SELECT count(*) FROM schedule_runs").await, 1);
    assert!(failed(&cli(&team, &["retention", "--days", "0"])).contains("at least 1"));
    ok(&cli(&team, &["delete-schedule", &id.to_string()]));
    assert_eq!(team.number("SELECT count(*) FROM schedules").await, 0);
    assert_eq!(team.number("SELECT count(*) FROM schedule_runs").await, 0);
    assert!(failed(&cli(&team, &["delete-schedule", &id.to_string()])).contains("no schedule"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_key_is_refused_and_a_missing_cap_is_said() {
    let team = Team::new().await;
    let serve = |key: &str| {
        Command::new(env!("CARGO_BIN_EXE_serpkit-server"))
            .args(["serve", "--port", "0", "--upstream", &team.upstream])
            .env("DATABASE_URL", &team.database)
            .env("SERPKIT_SERVICE_KEY", key)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut empty = serve("  ");
    let until = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(s) = empty.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > until {
            let _ = empty.kill();
            panic!("started with an empty service key");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(2));
    let mut said = String::new();
    let _ = std::io::Read::read_to_string(&mut empty.stderr.take().unwrap(), &mut said);
    assert!(said.contains("empty"), "{said}");
    // No team cap: the log says so before serving.
    let mut uncapped = serve(sandbox::DEFAULT_KEY);
    let stderr = BufReader::new(uncapped.stderr.take().unwrap());
    let warned = stderr
        .lines()
        .map_while(Result::ok)
        .take(20)
        .any(|l| l.contains("NO TEAM CAP IS SET"));
    let _ = uncapped.kill();
    let _ = uncapped.wait();
    assert!(warned);
}
