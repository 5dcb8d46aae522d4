//! A local PostgreSQL cluster for the team server (`cargo xtask team`) and its tests: Debian's
//! `postgresql` package installed when missing, a cluster under `target/` (initdb and postgres
//! refuse to run as root, so as root they run as the `postgres` user, which then owns the
//! cluster's directory), listening on loopback only. The server runs as a child process (not
//! through `pg_ctl`, which detaches it), so Ctrl-C stops it with the task; dropping the
//! cluster stops it too.
//!
//! Decided: the cluster trusts every connection from 127.0.0.1 (`initdb -A trust`): it is a
//! developer's local or throwaway database; a team's real one is set up by its admin
//! (README, "Running the team server"). It also accepts TLS (not requires it), with a
//! certificate for `localhost` from a CA of its own, made by `openssl` when the cluster is
//! created, so the team server's tests can connect with `sslmode=verify-full` (they read the
//! CA's path from `SHOW ssl_ca_file`); without `openssl` it serves plain connections only.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::servers::free_port;
use crate::tools::{apt_install, is_root};
use crate::{run, Res};

/// A running cluster, stopped on drop.
pub struct Cluster {
    bin: PathBuf,
    data: PathBuf,
    child: Child,
    /// Its port on 127.0.0.1.
    pub port: u16,
}

/// The newest `/usr/lib/postgresql/<version>/bin` holding `initdb`.
fn bin_dir() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| {
            let e = e.ok()?;
            let v = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").is_file().then_some((v, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

/// PostgreSQL's server programs, installed from Debian when missing.
fn ensure_postgres() -> Res<PathBuf> {
    if let Some(bin) = bin_dir() {
        return Ok(bin);
    }
    eprintln!("installing PostgreSQL from Debian");
    apt_install(&["postgresql"])?;
    bin_dir().ok_or_else(|| "initdb not found after installing postgresql".into())
}

/// `program args…`, as the `postgres` user when this process is root.
fn pg(bin: &Path, program: &str) -> Command {
    let path = bin.join(program);
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(path);
        c
    } else {
        Command::new(path)
    }
}

/// `dir`, or where the `postgres` user can reach when it cannot (as root, a checkout under a
/// directory only root may enter, such as `/root`): a folder of the same name under the
/// system's temporary directory.
fn reachable(dir: &Path) -> std::path::PathBuf {
    if !is_root() {
        return dir.to_path_buf();
    }
    let parent = dir.parent().unwrap_or(dir);
    let _ = fs::create_dir_all(parent);
    let ok = Command::new("runuser")
        .args(["-u", "postgres", "--", "test", "-x"])
        .arg(parent)
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        return dir.to_path_buf();
    }
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
    std::env::temp_dir().join(format!("serpkit-{}", name.unwrap_or_else(|| "pg".into())))
}

impl Cluster {
    /// Starts the cluster in `dir` (created with initdb unless it holds one; emptied first
    /// when `fresh`) on a free loopback port, without syncing to disk (throwaway or local
    /// data).
    pub fn start(dir: &Path, fresh: bool) -> Res<Cluster> {
        Cluster::start_with(dir, fresh, false)
    }

    /// As [`Cluster::start`], with every commit synced to disk (`fsync` on, PostgreSQL's
    /// default and production's): what the team server's latency benchmark measures on.
    pub fn start_syncing(dir: &Path, fresh: bool) -> Res<Cluster> {
        Cluster::start_with(dir, fresh, true)
    }

    fn start_with(dir: &Path, fresh: bool, sync: bool) -> Res<Cluster> {
        let bin = ensure_postgres()?;
        let dir = &reachable(dir);
        let data = dir.join("data");
        if fresh && dir.exists() {
            fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        if is_root() {
            run(Command::new("chown").args(["-R", "postgres"]).arg(dir))?;
        }
        if !data.join("PG_VERSION").is_file() {
            run(pg(&bin, "initdb")
                .args([
                    "-A",
                    "trust",
                    "-U",
                    "postgres",
                    "-E",
                    "UTF8",
                    "--no-sync",
                    "-D",
                ])
                .arg(&data)
                .stdout(Stdio::null()))?;
        }
        let tls = certificate(dir);
        let port = free_port()?;
        let log =
            fs::File::create(dir.join("log")).map_err(|e| format!("{}: {e}", dir.display()))?;
        let socket_dir = dir.canonicalize().map_err(|e| e.to_string())?;
        let mut child = pg(&bin, "postgres")
            .arg("-D")
            .arg(&data)
            .args(["-p", &port.to_string(), "-k"])
            // The socket in the cluster's own directory: no clash with a system cluster.
            .arg(&socket_dir)
            .args([
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "max_connections=200",
            ])
            .args(["-c", if sync { "fsync=on" } else { "fsync=off" }])
            .args(tls.iter().flat_map(|(ca, cert, key)| {
                [
                    "ssl=on".to_string(),
                    format!("ssl_cert_file={}", cert.display()),
                    format!("ssl_key_file={}", key.display()),
                    // Only for clients' certificates (none are asked for): where the tests
                    // find the CA (`SHOW ssl_ca_file`).
                    format!("ssl_ca_file={}", ca.display()),
                ]
                .into_iter()
                .flat_map(|setting| ["-c".to_string(), setting])
            }))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start postgres: {e}"))?;
        for _ in 0..300 {
            let ready = Command::new(bin.join("pg_isready"))
                .args(["-q", "-h", "127.0.0.1", "-p", &port.to_string()])
                .status()
                .is_ok_and(|s| s.success());
            if ready {
                return Ok(Cluster {
                    bin,
                    data,
                    child,
                    port,
                });
            }
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!(
                    "postgres ended ({status}); see {}",
                    dir.join("log").display()
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = child.kill();
        Err(format!(
            "postgres did not start; see {}",
            dir.join("log").display()
        ))
    }

    /// Its connection parameters (`host=… port=… user=…`).
    pub fn conninfo(&self) -> String {
        format!("host=127.0.0.1 port={} user=postgres", self.port)
    }

    /// Creates database `name` unless it exists.
    pub fn create_database(&self, name: &str) -> Res {
        let port = self.port.to_string();
        let psql = |sql: &str| {
            Command::new(self.bin.join("psql"))
                .args([
                    "-h",
                    "127.0.0.1",
                    "-p",
                    &port,
                    "-U",
                    "postgres",
                    "-d",
                    "postgres",
                ])
                .args(["-tAc", sql])
                .output()
                .map_err(|e| format!("psql: {e}"))
        };
        let exists = psql(&format!(
            "SELECT 1 FROM pg_database WHERE datname = '{name}'"
        ))?;
        if String::from_utf8_lossy(&exists.stdout).trim() == "1" {
            return Ok(());
        }
        let out = psql(&format!("CREATE DATABASE {name}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "CREATE DATABASE {name}: {}",
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    }
}

/// A certificate for `localhost` (only that name: a client checking the host name `127.0.0.1`
/// against it must refuse) signed by a CA of its own, with their keys, in `dir`, made once:
/// (CA, certificate, key); `None` without `openssl`.
fn certificate(dir: &Path) -> Option<(PathBuf, PathBuf, PathBuf)> {
    let dir = dir.canonicalize().ok()?;
    let [ca, ca_key, cert, key, csr, ext] = [
        "ca.crt",
        "ca.key",
        "server.crt",
        "server.key",
        "server.csr",
        "server.ext",
    ]
    .map(|name| dir.join(name));
    let openssl = |args: &[&std::ffi::OsStr]| {
        Command::new("openssl")
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    if !(ca.is_file() && cert.is_file() && key.is_file()) {
        let ec = [
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
        ]
        .map(os);
        let made_ca = openssl(
            &[&[os("req"), os("-x509")], &ec[..]]
                .concat()
                .into_iter()
                .chain([
                    os("-days"),
                    os("3650"),
                    os("-subj"),
                    os("/CN=serpkit test CA"),
                ])
                .chain([
                    os("-keyout"),
                    ca_key.as_os_str(),
                    os("-out"),
                    ca.as_os_str(),
                ])
                .collect::<Vec<_>>(),
        );
        let made_csr = made_ca
            && openssl(
                &[&[os("req")], &ec[..]]
                    .concat()
                    .into_iter()
                    .chain([os("-subj"), os("/CN=localhost")])
                    .chain([os("-keyout"), key.as_os_str(), os("-out"), csr.as_os_str()])
                    .collect::<Vec<_>>(),
            );
        let wrote = made_csr
            && fs::write(
                &ext,
                "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\n",
            )
            .is_ok();
        let signed = wrote
            && openssl(&[
                os("x509"),
                os("-req"),
                os("-in"),
                csr.as_os_str(),
                os("-CA"),
                ca.as_os_str(),
                os("-CAkey"),
                ca_key.as_os_str(),
                os("-CAcreateserial"),
                os("-days"),
                os("3650"),
                os("-extfile"),
                ext.as_os_str(),
                os("-out"),
                cert.as_os_str(),
            ]);
        if !signed {
            eprintln!(
                "postgres: no certificate (openssl missing or failed): plain connections only"
            );
            return None;
        }
    }
    // PostgreSQL refuses a key others may read; it must be its own user's.
    let _ = Command::new("chmod").arg("600").arg(&key).status();
    if is_root() {
        let _ = Command::new("chown")
            .arg("postgres")
            .args([&ca, &cert, &key])
            .status();
    }
    Some((ca, cert, key))
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // SIGINT to the postmaster itself (its pid heads postmaster.pid): PostgreSQL's fast
        // shutdown. `runuser` in between ignores SIGINT, as `su` does.
        let postmaster = fs::read_to_string(self.data.join("postmaster.pid"))
            .ok()
            .and_then(|t| t.lines().next().map(str::to_string));
        let pid = postmaster.unwrap_or_else(|| self.child.id().to_string());
        let _ = Command::new("kill").args(["-INT", &pid]).status();
        let _ = self.child.wait();
    }
}
