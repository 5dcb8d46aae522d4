//! The upstream client: one POST per fresh HTTP/1 connection to the service (plain `http://`;
//! see [`Upstream::parse`]). It tells apart a request that never left (nothing charged) from
//! one whose answer was lost (possibly charged).

use std::time::Duration;

use axum::body::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1;
use hyper::Request;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

/// Where the service is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Upstream {
    /// `host:port` to connect to.
    pub authority: String,
    /// The path prefix before `/v1/…` (empty or `/base`).
    pub prefix: String,
    /// The base URL as given, normalised (the record source is made from it).
    pub base_url: String,
}

impl Upstream {
    /// Reads a base URL. Decided: only `http://` in this server (an upstream reached over
    /// TLS needs a TLS client, which this slice does not carry); an `https://` base URL is
    /// refused at start rather than sent in clear.
    pub fn parse(base_url: &str) -> Result<Upstream, String> {
        let base = base_url.trim().trim_end_matches('/');
        let rest = base.strip_prefix("http://").ok_or_else(|| {
            format!("upstream {base:?}: only http:// base URLs are supported by this server")
        })?;
        let (authority, prefix) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        if authority.is_empty() {
            return Err(format!("upstream {base:?}: no host"));
        }
        let authority = if authority.contains(':') && !authority.ends_with(']') {
            authority.to_string()
        } else {
            format!("{authority}:80")
        };
        Ok(Upstream {
            authority,
            prefix: prefix.to_string(),
            base_url: base.to_string(),
        })
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

/// POSTs `body` as JSON to `path` (`/v1/…`) at `upstream`, giving up after `timeout`.
pub async fn post(upstream: &Upstream, path: &str, body: Bytes, timeout: Duration) -> Outcome {
    let stream = match tokio::time::timeout(timeout, TcpStream::connect(&upstream.authority)).await
    {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => return Outcome::NotSent(format!("cannot connect to the service: {e}")),
        Err(_) => return Outcome::NotSent("connecting to the service timed out".into()),
    };
    let _ = stream.set_nodelay(true);
    let (mut sender, connection) = match http1::handshake(TokioIo::new(stream)).await {
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

    #[test]
    fn base_urls() {
        let u = Upstream::parse("http://127.0.0.1:8787/").unwrap();
        assert_eq!(
            (u.authority.as_str(), u.prefix.as_str()),
            ("127.0.0.1:8787", "")
        );
        let u = Upstream::parse("http://api.example.com/base").unwrap();
        assert_eq!(
            (u.authority.as_str(), u.prefix.as_str()),
            ("api.example.com:80", "/base")
        );
        assert!(Upstream::parse("https://api.example.com").is_err());
        assert!(Upstream::parse("http:///x").is_err());
    }
}
