//! The upstream client: one POST per fresh HTTP/1 connection to the service, over TLS
//! (rustls; `http://` only to a loopback address, as the app allows). It tells apart a
//! request that never left (nothing charged) from one whose answer was lost (possibly
//! charged).

use std::net::IpAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1;
use hyper::Request;
use hyper_util::rt::TokioIo;
use rustls::pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;

/// Where the service is.
#[derive(Clone)]
pub struct Upstream {
    /// `host:port` to connect to.
    pub authority: String,
    /// The host as written (TLS checks the certificate against it).
    pub host: String,
    /// The path prefix before `/v1/…` (empty or `/base`).
    pub prefix: String,
    /// The service's identity, whatever the spelling of its URL: scheme and host in lower
    /// case, a loopback host as `127.0.0.1` (`localhost`, `127.0.0.1` and `[::1]` are one
    /// machine), the port only when not the scheme's default, the path without a trailing
    /// `/`. The team's records are keyed by it (`App::source`).
    pub origin: String,
    /// The TLS client, for `https://`.
    pub tls: Option<TlsConnector>,
}

impl std::fmt::Debug for Upstream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upstream")
            .field("origin", &self.origin)
            .field("tls", &self.tls.is_some())
            .finish()
    }
}

/// Whether `host` (no brackets) names this machine.
fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// A base URL taken apart: (https, host without brackets, port, path prefix).
fn split(base_url: &str) -> Result<(bool, String, u16, String), String> {
    let base = base_url.trim().trim_end_matches('/');
    let bad = |why: &str| format!("upstream {base:?}: {why}");
    let (scheme, rest) = base
        .split_once("://")
        .ok_or_else(|| bad("not a URL (https://host[:port][/path])"))?;
    let https = match scheme.to_ascii_lowercase().as_str() {
        "https" => true,
        "http" => false,
        _ => {
            return Err(bad(
                "the scheme must be https (or http to a loopback address)",
            ))
        }
    };
    let (authority, prefix) = match rest.find(['/', '?', '#']) {
        Some(i) if rest[i..].starts_with('/') && !rest[i..].contains(['?', '#']) => {
            (&rest[..i], &rest[i..])
        }
        Some(_) => return Err(bad("no query or fragment in a base URL")),
        None => (rest, ""),
    };
    if authority.contains('@') {
        return Err(bad(
            "no user or password in the URL (the key is sent in the body)",
        ));
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (host, after) = v6.split_once(']').ok_or_else(|| bad("unclosed ["))?;
        (host, after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return Err(bad("no host"));
    }
    let port = match port {
        Some(p) => p
            .parse::<u16>()
            .map_err(|_| bad("the port is not a number"))?,
        None if https => 443,
        None => 80,
    };
    Ok((https, host.to_ascii_lowercase(), port, prefix.to_string()))
}

impl Upstream {
    /// Reads a base URL; `extra_roots`: a PEM file of roots trusted beside the bundled ones.
    /// Decided: plain `http://` only to a loopback address (the sandbox, a local proxy), as
    /// the app allows; anything else must be `https://`, so the key never crosses a network
    /// in clear.
    pub fn new(base_url: &str, extra_roots: Option<&Path>) -> Result<Upstream, String> {
        let (https, host, port, prefix) = split(base_url)?;
        if !https && !is_loopback(&host) {
            return Err(format!(
                "upstream {base_url:?}: http:// only to a loopback address; use https://"
            ));
        }
        let bracketed = if host.contains(':') {
            format!("[{host}]")
        } else {
            host.clone()
        };
        let (scheme, default_port) = if https { ("https", 443) } else { ("http", 80) };
        let origin_host = if is_loopback(&host) {
            "127.0.0.1".to_string()
        } else {
            bracketed.clone()
        };
        let origin = if port == default_port {
            format!("{scheme}://{origin_host}{prefix}")
        } else {
            format!("{scheme}://{origin_host}:{port}{prefix}")
        };
        let tls = if https {
            let roots = crate::tls::roots(extra_roots)?;
            let mut config = crate::tls::client(Some(roots), true)?;
            config.alpn_protocols = vec![b"http/1.1".to_vec()];
            Some(TlsConnector::from(Arc::new(config)))
        } else {
            None
        };
        Ok(Upstream {
            authority: format!("{bracketed}:{port}"),
            host,
            prefix,
            origin,
            tls,
        })
    }

    /// Whether a TCP connection to the service can be made within `timeout` (nothing is
    /// sent: `/health` asks it).
    pub async fn reachable(&self, timeout: Duration) -> Result<(), String> {
        match tokio::time::timeout(timeout, TcpStream::connect(&self.authority)).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err("timed out".into()),
        }
    }
}

/// What a POST came to.
#[derive(Debug)]
pub enum Outcome {
    /// An answer, read whole.
    Answer {
        /// HTTP status.
        status: u16,
        /// Headers (names lower case).
        headers: Vec<(String, String)>,
        /// Body.
        body: Bytes,
    },
    /// The connection could not be made: the request was never sent.
    NotSent(String),
    /// Sent (or maybe sent), and no whole answer came: it may have been charged.
    Lost(String),
    /// Not sent: the caller held it back (`buy`: its process lost its liveness id).
    Withheld,
}

/// What an answer's status says about its charge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Billed {
    /// A success: the service answered, and charged.
    Charged,
    /// The request was refused as sent: not served, not charged.
    NotCharged,
    /// The service may have done the work (and charged) before it failed: possibly charged.
    Unknown,
}

/// Whether an answer of `status` was charged. The spec documents no error status and says
/// nothing of billing errors ("Error status codes …: not shown"), so decided here, the one
/// place: a success (2xx, as the core client counts it) is charged; a redirect or a 4xx
/// refusal of the request itself (bad, unauthorised, unpaid, not found, too large) was not
/// served, so not charged; anything else (5xx, 429 and 408, whose limiter or timer may sit
/// after the work, 1xx) is unknown and counts possibly charged, never not charged.
pub fn billed(status: u16) -> Billed {
    match status {
        200..=299 => Billed::Charged,
        408 | 429 => Billed::Unknown,
        300..=499 => Billed::NotCharged,
        _ => Billed::Unknown,
    }
}

/// POSTs `body` as JSON to `path` (`/v1/…`) at `upstream`, giving up after `timeout`.
pub async fn post(upstream: &Upstream, path: &str, body: Bytes, timeout: Duration) -> Outcome {
    let started = Instant::now();
    let stream = match tokio::time::timeout(timeout, TcpStream::connect(&upstream.authority)).await
    {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => return Outcome::NotSent(format!("cannot connect to the service: {e}")),
        Err(_) => return Outcome::NotSent("connecting to the service timed out".into()),
    };
    let _ = stream.set_nodelay(true);
    let outcome = match &upstream.tls {
        None => exchange(stream, upstream, path, body, timeout).await,
        Some(tls) => {
            let Ok(name) = ServerName::try_from(upstream.host.clone()) else {
                return Outcome::NotSent(format!("{:?} is not a TLS server name", upstream.host));
            };
            // Nothing of the request is written before the handshake ends: a failed one
            // (an unknown certificate, say) was not charged.
            match tokio::time::timeout(timeout, tls.connect(name, stream)).await {
                Ok(Ok(s)) => exchange(s, upstream, path, body, timeout).await,
                Ok(Err(e)) => return Outcome::NotSent(format!("TLS with the service failed: {e}")),
                Err(_) => return Outcome::NotSent("the TLS handshake timed out".into()),
            }
        }
    };
    crate::metrics::METRICS.upstream(started.elapsed());
    outcome
}

/// One request and its whole answer over `io`.
async fn exchange<Io>(
    io: Io,
    upstream: &Upstream,
    path: &str,
    body: Bytes,
    timeout: Duration,
) -> Outcome
where
    Io: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    let (mut sender, connection) = match http1::handshake(TokioIo::new(io)).await {
        Ok(x) => x,
        Err(e) => return Outcome::NotSent(format!("cannot talk to the service: {e}")),
    };
    tokio::spawn(connection);
    let request = Request::post(format!("{}{path}", upstream.prefix))
        .header("host", &upstream.authority)
        .header("content-type", "application/json")
        .body(Full::new(body));
    let request = match request {
        Ok(r) => r,
        Err(e) => return Outcome::NotSent(format!("bad request: {e}")),
    };
    let exchange = async {
        let response = sender.send_request(request).await?;
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .filter_map(|(n, v)| Some((n.as_str().to_string(), v.to_str().ok()?.to_string())))
            .collect();
        let body = response.into_body().collect().await?.to_bytes();
        Ok::<_, hyper::Error>((status, headers, body))
    };
    match tokio::time::timeout(timeout, exchange).await {
        Ok(Ok((status, headers, body))) => Outcome::Answer {
            status,
            headers,
            body,
        },
        Ok(Err(e)) => Outcome::Lost(format!("the service's answer was lost: {e}")),
        Err(_) => Outcome::Lost("the service did not answer in time".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(url: &str) -> String {
        Upstream::new(url, None).unwrap().origin
    }

    #[test]
    fn one_service_one_origin_however_its_url_is_spelled() {
        for url in [
            "http://127.0.0.1:8787",
            "http://localhost:8787/",
            "HTTP://LocalHost:8787",
            "http://[::1]:8787",
            "http://127.0.0.1:8787/",
        ] {
            assert_eq!(origin(url), "http://127.0.0.1:8787", "{url}");
        }
        assert_eq!(
            origin("https://API.example.com:443/"),
            "https://api.example.com"
        );
        assert_eq!(
            origin("https://api.example.com/base/"),
            "https://api.example.com/base"
        );
        assert_eq!(
            origin("https://api.example.com:8443"),
            "https://api.example.com:8443"
        );
        assert_eq!(origin("http://localhost"), "http://127.0.0.1");
    }

    #[test]
    fn an_answer_whose_charge_is_unknown_is_possibly_charged() {
        for s in [200, 201, 204] {
            assert_eq!(billed(s), Billed::Charged, "{s}");
        }
        for s in [301, 307, 400, 401, 402, 403, 404, 413, 422] {
            assert_eq!(billed(s), Billed::NotCharged, "{s}");
        }
        for s in [100, 408, 429, 500, 502, 503, 504, 599, 600] {
            assert_eq!(billed(s), Billed::Unknown, "{s}");
        }
    }

    #[test]
    fn base_urls() {
        let u = Upstream::new("http://127.0.0.1:8787/", None).unwrap();
        assert_eq!(
            (u.authority.as_str(), u.prefix.as_str()),
            ("127.0.0.1:8787", "")
        );
        let u = Upstream::new("https://api.example.com/base", None).unwrap();
        assert_eq!(
            (u.authority.as_str(), u.prefix.as_str()),
            ("api.example.com:443", "/base")
        );
        assert!(u.tls.is_some());
        let u = Upstream::new("http://[::1]:9/", None).unwrap();
        assert_eq!(u.authority, "[::1]:9");
        // The key would cross a network in clear.
        assert!(Upstream::new("http://api.example.com", None).is_err());
        assert!(Upstream::new("http://10.0.0.5:8787", None).is_err());
        assert!(Upstream::new("http:///x", None).is_err());
        assert!(Upstream::new("ftp://127.0.0.1", None).is_err());
        assert!(Upstream::new("https://u:p@api.example.com", None).is_err());
        assert!(Upstream::new("https://api.example.com:x", None).is_err());
    }
}
