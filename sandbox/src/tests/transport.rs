//! The node over HTTP, served in process: JSON-RPC and friendbot, keep-alive connections shared
//! between clients, and the framing clients use.

use crate::base::codec::account_id;
use crate::tests::support::{http, key, node, serve};

/// A node served over HTTP on a free loopback port, for the rest of the test process.
fn serve_in_process() -> u16 {
    serve(node())
}

#[test]
fn serves_json_rpc_and_friendbot_over_http_in_process() {
    let port = serve_in_process();

    let (st, v) = http(port, "POST", "/rpc", r#"{"jsonrpc":"2.0","id":1,"method":"getHealth"}"#);
    assert_eq!((st, v["result"]["status"].as_str()), (200, Some("healthy")));
    let (_, v) = http(port, "POST", "/rpc", r#"[{"jsonrpc":"2.0","id":1,"method":"getNetwork"},{"jsonrpc":"2.0","id":2,"method":"nope"}]"#);
    assert_eq!(v[0]["result"]["friendbotUrl"], format!("http://127.0.0.1:{port}/friendbot"));
    assert_eq!(v[1]["error"]["code"], -32601);
    let (_, v) = http(port, "POST", "/rpc", "{not json");
    assert_eq!(v["error"]["code"], -32700);

    let addr = account_id(&key(21)).to_string();
    let (st, v) = http(port, "GET", &format!("/friendbot?addr={addr}"), "");
    assert_eq!(st, 200);
    let hash = v["hash"].as_str().unwrap().to_string();
    let (_, v) = http(port, "POST", "/rpc", &format!(r#"{{"jsonrpc":"2.0","id":3,"method":"getTransaction","params":{{"hash":"{hash}"}}}}"#));
    assert_eq!(v["result"]["status"], "SUCCESS");
    let (st, v) = http(port, "POST", &format!("/friendbot?addr={addr}"), "");
    assert_eq!(st, 400);
    assert_eq!(
        v,
        serde_json::json!({ "type": "https://stellar.org/horizon-errors/bad_request", "title": "Bad Request", "status": 400, "detail": "account already funded to starting balance" })
    );
    let (st, v) = http(port, "GET", "/friendbot?addr=nope", "");
    assert_eq!(st, 400);
    assert_eq!((v["type"].as_str(), v["title"].as_str(), v["status"].as_u64()), (Some("https://stellar.org/horizon-errors/bad_request"), Some("Bad Request"), Some(400)));
    assert!(v["detail"].as_str().unwrap().contains("nope"));
}

/// One JSON-RPC request on an open keep-alive connection; reads exactly one response.
fn rpc_on(s: &mut std::net::TcpStream, body: &str) -> std::io::Result<serde_json::Value> {
    use std::io::{BufRead, Read, Write};
    write!(s, "POST /rpc HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len())?;
    let mut r = std::io::BufReader::new(&*s);
    let mut len = 0;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        if line == "\r\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                len = v.trim().parse().unwrap();
            }
        }
    }
    let mut buf = vec![0; len];
    r.read_exact(&mut buf)?;
    Ok(serde_json::from_slice(&buf).unwrap())
}

/// Several clients share one node: connections another client keeps open and idle must not
/// delay a new client's parallel requests (they used to wait until an idle connection closed,
/// about 5 s with Node's keep-alive agents).
#[test]
fn idle_keep_alive_connections_do_not_delay_new_clients() {
    use std::time::{Duration, Instant};
    let req = r#"{"jsonrpc":"2.0","id":1,"method":"getLatestLedger"}"#;
    let mut worst = Duration::ZERO;
    for _round in 0..20 {
        let port = serve_in_process();
        let idle: Vec<_> = (0..3)
            .map(|_| {
                let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
                rpc_on(&mut s, req).unwrap();
                s
            })
            .collect();
        std::thread::sleep(Duration::from_millis(20));
        let burst: Vec<_> = (0..16)
            .map(|_| {
                std::thread::spawn(move || {
                    let t0 = Instant::now();
                    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
                    s.set_read_timeout(Some(Duration::from_secs(3))).unwrap();
                    let ok = rpc_on(&mut s, req).map(|v| v["result"]["sequence"].is_u64()).unwrap_or(false);
                    (ok, t0.elapsed(), s)
                })
            })
            .collect();
        let done: Vec<_> = burst.into_iter().map(|h| h.join().unwrap()).collect();
        for (ok, t, _) in &done {
            worst = worst.max(if *ok { *t } else { Duration::from_secs(3) });
        }
        drop((idle, done));
        if worst >= Duration::from_secs(1) {
            break;
        }
    }
    assert!(worst < Duration::from_secs(1), "a request of a parallel burst waited {worst:?}");
}

/// HTTP/1.1 framing the clients use: keep-alive with pipelined requests, chunked bodies,
/// `Expect: 100-continue`, CORS preflight, and the body limit.
#[test]
fn http_framing_keep_alive_chunked_continue_preflight_and_limit() {
    use std::io::{Read, Write};
    let port = serve_in_process();
    let read_all = |mut s: std::net::TcpStream| {
        s.set_read_timeout(Some(std::time::Duration::from_secs(5))).unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        out
    };
    let req = r#"{"jsonrpc":"2.0","id":7,"method":"getHealth"}"#;

    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let (a, b) = req.split_at(10);
    write!(s, "POST /rpc HTTP/1.1\r\nContent-Length: {}\r\n\r\n{req}", req.len()).unwrap();
    write!(s, "POST /rpc/ HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{a}\r\n{:x}\r\n{b}\r\n0\r\n\r\n", a.len(), b.len()).unwrap();
    write!(s, "POST /rpc HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{req}", req.len()).unwrap();
    let out = read_all(s);
    assert_eq!(out.matches("HTTP/1.1 200 OK").count(), 3, "{out}");
    assert_eq!(out.matches(r#""id":7"#).count(), 3, "{out}");
    assert!(out.contains("HTTP/1.1 100 Continue\r\n\r\n"), "{out}");
    assert!(out.ends_with("}"), "{out}");

    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "OPTIONS /rpc HTTP/1.1\r\nConnection: close\r\n\r\n").unwrap();
    let out = read_all(s);
    assert!(out.starts_with("HTTP/1.1 204") && out.contains("Access-Control-Allow-Methods: GET, POST, OPTIONS"), "{out}");

    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "POST /rpc HTTP/1.1\r\nContent-Length: {}\r\n\r\n", 9 << 20).unwrap();
    assert!(read_all(s).starts_with("HTTP/1.1 413"));
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "nonsense\r\n\r\n").unwrap();
    assert!(read_all(s).starts_with("HTTP/1.1 400"));
    assert_eq!(http(port, "GET", "/nope", "").0, 404);
}
