//! HTTP transport: JSON-RPC 2.0 on /rpc (single and batch), friendbot on /friendbot.

use crate::base::errors::FriendbotError;
use crate::rpc::dispatch::{handle, Ctx};
use serde_json::{json, Value};
use soroban_env_host::xdr::AccountId;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::str::FromStr;
use std::sync::Arc;

const MAX_BODY: usize = 8 << 20;
const MAX_HEAD: usize = 64 << 10;

pub fn bind(host: &str, port: u16) -> Result<(TcpListener, u16), String> {
    let listener = TcpListener::bind((host, port)).map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    Ok((listener, port))
}

/// Accepts connections on a thread of its own and serves each connection on its own thread,
/// for as long as the client keeps it open. An idle keep-alive connection costs one blocked
/// thread and never delays another connection: there is no pool to run out of. (tiny_http's
/// pool, used before, could leave a new connection queued behind idle ones until one of them
/// closed — about 5 s with Node's keep-alive agents.) Requests still take the node lock one
/// at a time; only parsing and I/O run in parallel.
pub fn serve(listener: TcpListener, ctx: Arc<Ctx>) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || loop {
        match listener.accept() {
            Ok((stream, _)) => {
                let ctx = ctx.clone();
                let spawned = std::thread::Builder::new().name("sandbox-conn".into()).spawn(move || connection(&ctx, stream));
                if let Err(e) = spawned {
                    eprintln!("sandbox: cannot start a connection thread: {e}");
                }
            }
            // Out of file descriptors or similar: the listener itself is fine, retry shortly.
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(10)),
        }
    })
}

struct Head {
    method: String,
    target: String,
    keep_alive: bool,
    content_length: Option<usize>,
    chunked: bool,
    expect_continue: bool,
}

enum ReadError {
    Closed,
    Bad(&'static str),
}

impl From<std::io::Error> for ReadError {
    fn from(_: std::io::Error) -> Self {
        ReadError::Closed
    }
}

fn read_line(r: &mut impl BufRead, budget: &mut usize) -> Result<String, ReadError> {
    let mut line = Vec::new();
    let n = r.by_ref().take(*budget as u64 + 1).read_until(b'\n', &mut line)?;
    if n == 0 {
        return Err(ReadError::Closed);
    }
    if n > *budget || !line.ends_with(b"\n") {
        return Err(ReadError::Bad("request head too large"));
    }
    *budget -= n;
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    String::from_utf8(line).map_err(|_| ReadError::Bad("request head is not UTF-8"))
}

fn read_head(r: &mut impl BufRead) -> Result<Head, ReadError> {
    let mut budget = MAX_HEAD;
    let mut line = read_line(r, &mut budget)?;
    while line.is_empty() {
        line = read_line(r, &mut budget)?; // stray CRLF between requests
    }
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return Err(ReadError::Bad("malformed request line"));
    };
    let http10 = match version {
        "HTTP/1.1" => false,
        "HTTP/1.0" => true,
        _ => return Err(ReadError::Bad("only HTTP/1.0 and HTTP/1.1 are served")),
    };
    let mut head = Head { method: method.to_string(), target: target.to_string(), keep_alive: !http10, content_length: None, chunked: false, expect_continue: false };
    loop {
        let line = read_line(r, &mut budget)?;
        if line.is_empty() {
            return Ok(head);
        }
        let Some((k, v)) = line.split_once(':') else {
            return Err(ReadError::Bad("malformed header"));
        };
        let (k, v) = (k.trim().to_ascii_lowercase(), v.trim().to_ascii_lowercase());
        match k.as_str() {
            "content-length" => head.content_length = Some(v.parse().map_err(|_| ReadError::Bad("bad Content-Length"))?),
            "transfer-encoding" => head.chunked = v.split(',').any(|t| t.trim() == "chunked"),
            "connection" if v.contains("close") => head.keep_alive = false,
            "connection" if v.contains("keep-alive") => head.keep_alive = true,
            "expect" => head.expect_continue = v == "100-continue",
            _ => {}
        }
    }
}

/// The body, or None when it is larger than MAX_BODY (the connection is then closed).
fn read_body(r: &mut impl BufRead, head: &Head) -> Result<Option<Vec<u8>>, ReadError> {
    let mut body = Vec::new();
    if head.chunked {
        loop {
            let mut budget = MAX_HEAD;
            let line = read_line(r, &mut budget)?;
            let size = usize::from_str_radix(line.split(';').next().unwrap_or("").trim(), 16).map_err(|_| ReadError::Bad("bad chunk size"))?;
            if size == 0 {
                while !read_line(r, &mut budget)?.is_empty() {} // trailers
                return Ok(Some(body));
            }
            if body.len() + size > MAX_BODY {
                return Ok(None);
            }
            let at = body.len();
            body.resize(at + size, 0);
            r.read_exact(&mut body[at..])?;
            read_line(r, &mut budget)?;
        }
    }
    let len = head.content_length.unwrap_or(0);
    if len > MAX_BODY {
        return Ok(None);
    }
    body.resize(len, 0);
    r.read_exact(&mut body)?;
    Ok(Some(body))
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        404 => "Not Found",
        413 => "Payload Too Large",
        _ => "",
    }
}

fn write_response(w: &mut impl Write, status: u16, extra: &[(&str, &str)], body: &[u8], keep_alive: bool) -> std::io::Result<()> {
    let mut out = format!("HTTP/1.1 {status} {}\r\nAccess-Control-Allow-Origin: *\r\n", reason(status));
    for (k, v) in extra {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    if status != 204 {
        out.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", body.len()));
    }
    out.push_str(if keep_alive { "Connection: keep-alive\r\n\r\n" } else { "Connection: close\r\n\r\n" });
    let mut bytes = out.into_bytes();
    bytes.extend_from_slice(body);
    w.write_all(&bytes)?;
    w.flush()
}

/// Serves the requests of one connection in order until the client closes it (or asks to).
fn connection(ctx: &Ctx, stream: TcpStream) {
    let _ = stream.set_nodelay(true);
    let Ok(read_half) = stream.try_clone() else { return };
    let mut r = BufReader::new(read_half);
    let mut w = stream;
    loop {
        let head = match read_head(&mut r) {
            Ok(h) => h,
            Err(ReadError::Closed) => return,
            Err(ReadError::Bad(why)) => {
                let _ = write_response(&mut w, 400, &[], json!({ "error": why }).to_string().as_bytes(), false);
                return;
            }
        };
        let fits = head.chunked || head.content_length.unwrap_or(0) <= MAX_BODY;
        if head.expect_continue && fits && w.write_all(b"HTTP/1.1 100 Continue\r\n\r\n").is_err() {
            return;
        }
        let body = match read_body(&mut r, &head) {
            Ok(Some(b)) => b,
            Ok(None) => {
                let _ = write_response(&mut w, 413, &[], json!({ "error": "request body too large (8 MiB max)" }).to_string().as_bytes(), false);
                return;
            }
            Err(ReadError::Closed) => return,
            Err(ReadError::Bad(why)) => {
                let _ = write_response(&mut w, 400, &[], json!({ "error": why }).to_string().as_bytes(), false);
                return;
            }
        };
        let written = if head.method == "OPTIONS" {
            let cors = [("Access-Control-Allow-Methods", "GET, POST, OPTIONS"), ("Access-Control-Allow-Headers", "*")];
            write_response(&mut w, 204, &cors, b"", head.keep_alive)
        } else {
            let (status, out) = route(ctx, &head.method, &head.target, &body);
            write_response(&mut w, status, &[], out.to_string().as_bytes(), head.keep_alive)
        };
        if written.is_err() || !head.keep_alive {
            return;
        }
    }
}

fn route(ctx: &Ctx, method: &str, url: &str, body: &[u8]) -> (u16, Value) {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    match (method, path.trim_end_matches('/')) {
        ("POST", "/rpc") | ("POST", "") => {
            let out = match serde_json::from_slice::<Value>(body) {
                Err(e) => crate::base::errors::RpcError::Parse(e.to_string()).to_json(&Value::Null),
                Ok(Value::Array(batch)) => Value::Array(batch.iter().map(|r| handle(ctx, r)).collect()),
                Ok(r) => handle(ctx, &r),
            };
            (200, out)
        }
        ("GET" | "POST", "/friendbot") => {
            let addr = query.split('&').find_map(|kv| kv.strip_prefix("addr=")).map(percent_decode).unwrap_or_default();
            let Ok(id) = AccountId::from_str(&addr) else {
                return FriendbotError::BadRequest(format!("addr {addr:?} is not a G... account address")).problem();
            };
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| ctx.lock().friendbot(id)))
                .unwrap_or_else(|_| Err(FriendbotError::Failed("friendbot panicked".into())));
            match result {
                Ok(h) => (200, json!({ "hash": hex::encode(h), "successful": true })),
                Err(e) => e.problem(),
            }
        }
        ("GET", "/health") | ("GET", "") => (200, json!({ "status": "healthy" })),
        _ => (404, json!({ "error": format!("no route {path}: JSON-RPC is served on POST /rpc, friendbot on /friendbot?addr=G...") })),
    }
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Some(v) = s.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
