//! Helpers shared by the HTTP server tests: a server on port 0 and a raw HTTP/1.1 client.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::Arc;

use sandbox::{Config, Date, KeyConfig, Sandbox};
use serde_json::Value;
use serpkit::Usd;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

pub const KEY: &str = "test-key-123456";

pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
    pub fn error_code(&self) -> String {
        self.json()["error"]["code"].as_str().unwrap().to_owned()
    }
}

pub async fn start(config: Config) -> SocketAddr {
    let sb = Arc::new(Sandbox::new(config));
    sandbox::server::spawn("127.0.0.1:0".parse().unwrap(), sb)
        .await
        .unwrap()
}

pub fn config() -> Config {
    let mut c = Config::new(Date::new(2024, 3, 5).unwrap()).with_keys(vec![
        KeyConfig::unlimited(KEY),
        KeyConfig::with_budget("poor-key-0001", "0.30".parse::<Usd>().unwrap()),
    ]);
    c.max_body_bytes = 4096;
    c
}

pub async fn raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Resp {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\ncontent-length: {}\r\n",
        body.len()
    );
    for (n, v) in headers {
        req.push_str(&format!("{n}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    // The server may answer 413 before reading everything; ignore a reset while writing.
    let _ = s.write_all(body).await;
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf).await;
    let split = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("no header end");
    let head = String::from_utf8_lossy(&buf[..split]).to_string();
    let body = String::from_utf8_lossy(&buf[split + 4..]).to_string();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Resp {
        status,
        headers,
        body,
    }
}

pub async fn post(addr: SocketAddr, op: &str, body: &str) -> Resp {
    raw(
        addr,
        "POST",
        &format!("/v1/{op}"),
        &[("content-type", "application/json")],
        body.as_bytes(),
    )
    .await
}

pub async fn post_fault(addr: SocketAddr, op: &str, body: &str, fault: &str) -> Resp {
    raw(
        addr,
        "POST",
        &format!("/v1/{op}"),
        &[
            ("content-type", "application/json"),
            ("x-sandbox-fault", fault),
        ],
        body.as_bytes(),
    )
    .await
}

pub async fn ledger(addr: SocketAddr) -> Value {
    raw(addr, "GET", "/ledger", &[], b"").await.json()
}

pub fn related(key: &str) -> String {
    format!(r#"{{"key":"{key}","keyword":"trail shoes","ccode":"US"}}"#)
}

/// `POST /ledger/reset` as clients must send it (JSON content type).
pub async fn reset(addr: SocketAddr) {
    let r = raw(
        addr,
        "POST",
        "/ledger/reset",
        &[("content-type", "application/json")],
        b"{}",
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
}
