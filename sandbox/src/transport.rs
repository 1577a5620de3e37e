//! HTTP transport: JSON-RPC 2.0 on /rpc (single and batch), friendbot on /friendbot.

use crate::rpc::{handle, Ctx};
use serde_json::{json, Value};
use soroban_env_host::xdr::AccountId;
use std::io::Read;
use std::str::FromStr;
use std::sync::Arc;
use tiny_http::{Header, Method, Request, Response, Server};

const MAX_BODY: usize = 8 << 20;

pub fn bind(host: &str, port: u16) -> Result<(Server, u16), String> {
    let server = Server::http((host, port)).map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let port = server.server_addr().to_ip().map(|a| a.port()).ok_or("not an IP listener")?;
    Ok((server, port))
}

fn header(k: &str, v: &str) -> Header {
    Header::from_bytes(k.as_bytes(), v.as_bytes()).expect("valid header")
}

fn respond(req: Request, status: u16, body: &Value) {
    let resp = Response::from_string(body.to_string())
        .with_status_code(status)
        .with_header(header("Content-Type", "application/json"))
        .with_header(header("Access-Control-Allow-Origin", "*"));
    let _ = req.respond(resp);
}

pub fn serve(server: Arc<Server>, ctx: Arc<Ctx>, threads: usize) -> Vec<std::thread::JoinHandle<()>> {
    (0..threads)
        .map(|_| {
            let server = server.clone();
            let ctx = ctx.clone();
            std::thread::spawn(move || {
                for req in server.incoming_requests() {
                    route(&ctx, req);
                }
            })
        })
        .collect()
}

fn route(ctx: &Ctx, mut req: Request) {
    let url = req.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((url.as_str(), ""));
    if *req.method() == Method::Options {
        let resp = Response::empty(204)
            .with_header(header("Access-Control-Allow-Origin", "*"))
            .with_header(header("Access-Control-Allow-Methods", "GET, POST, OPTIONS"))
            .with_header(header("Access-Control-Allow-Headers", "*"));
        let _ = req.respond(resp);
        return;
    }
    match (req.method().clone(), path.trim_end_matches('/')) {
        (Method::Post, "/rpc") | (Method::Post, "") => {
            let mut body = Vec::new();
            if req.as_reader().take(MAX_BODY as u64 + 1).read_to_end(&mut body).is_err() || body.len() > MAX_BODY {
                respond(req, 413, &json!({ "error": "request body too large (8 MiB max)" }));
                return;
            }
            let out = match serde_json::from_slice::<Value>(&body) {
                Err(e) => crate::errors::RpcError::Parse(e.to_string()).to_json(&Value::Null),
                Ok(Value::Array(batch)) => Value::Array(batch.iter().map(|r| handle(ctx, r)).collect()),
                Ok(r) => handle(ctx, &r),
            };
            respond(req, 200, &out);
        }
        (Method::Get | Method::Post, "/friendbot") => {
            let addr = query.split('&').find_map(|kv| kv.strip_prefix("addr=")).map(percent_decode).unwrap_or_default();
            let Ok(id) = AccountId::from_str(&addr) else {
                respond(req, 400, &json!({ "status": 400, "detail": format!("addr {addr:?} is not a G... account address") }));
                return;
            };
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| ctx.lock().friendbot(id)))
                .unwrap_or_else(|_| Err("friendbot panicked".to_string()));
            match result {
                Ok(h) => respond(req, 200, &json!({ "hash": hex::encode(h), "successful": true })),
                Err(e) => respond(req, 400, &json!({ "status": 400, "detail": e })),
            }
        }
        (Method::Get, "/health") | (Method::Get, "") => respond(req, 200, &json!({ "status": "healthy" })),
        _ => respond(req, 404, &json!({ "error": format!("no route {path}: JSON-RPC is served on POST /rpc, friendbot on /friendbot?addr=G...") })),
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
