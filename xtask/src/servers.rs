//! The servers the tests and benchmarks talk to: the sandbox HTTP server and a static file
//! server for the built app. Both listen on a free loopback port and stop when dropped.

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::{cargo, run, target_dir, Res};

/// The sandbox HTTP server on a free loopback port, stopped on drop.
pub struct SandboxServer {
    child: Child,
    /// Its base URL, `http://127.0.0.1:<port>`.
    pub url: String,
}

impl SandboxServer {
    /// The test key (no budget limit).
    pub const KEY: &'static str = "sandbox-test-key";
    /// A key with a $0.50 budget, for 402 tests.
    pub const POOR_KEY: &'static str = "poor-test-key";

    /// Builds (debug) and starts the server; returns once it printed its URL.
    pub fn start() -> Res<SandboxServer> {
        run(cargo().args(["build", "--quiet", "-p", "sandbox", "--bin", "sandbox"]))?;
        let mut child = Command::new(target_dir().join("debug").join("sandbox"))
            .args(["--port", "0", "--key", Self::KEY, "--key"])
            .arg(format!("{}:0.50", Self::POOR_KEY))
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the sandbox server: {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout from the sandbox")?;
        let mut reader = BufReader::new(stdout);
        let mut line = String::new();
        reader
            .read_line(&mut line)
            .map_err(|e| format!("sandbox: {e}"))?;
        // Keep draining its output so the server never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
        let url = line
            .trim()
            .rsplit(' ')
            .next()
            .filter(|u| u.starts_with("http://"))
            .ok_or_else(|| format!("unexpected sandbox output: {line:?}"))?
            .to_string();
        eprintln!("sandbox server: {url}");
        Ok(SandboxServer { child, url })
    }
}

impl Drop for SandboxServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A static file server (python3's http.server) on a free loopback port, stopped on drop.
pub struct StaticServer {
    child: Child,
    /// The port it listens on (127.0.0.1).
    pub port: u16,
}

impl StaticServer {
    /// Serves `dir`; returns once the port accepts connections.
    pub fn start(dir: &Path) -> Res<StaticServer> {
        let port = free_port()?;
        let child = Command::new("python3")
            .args(["-m", "http.server", "--bind", "127.0.0.1"])
            .arg(port.to_string())
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start python3 http.server: {e}"))?;
        for _ in 0..100 {
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Ok(StaticServer { child, port });
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err("static server did not start".into())
    }

    /// Its base URL, `http://127.0.0.1:<port>/`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A free TCP port on 127.0.0.1.
pub fn free_port() -> Res<u16> {
    TcpListener::bind(("127.0.0.1", 0))
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .map_err(|e| format!("no free port: {e}"))
}
