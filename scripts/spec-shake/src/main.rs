//! `spec-shake IN.wasm OUT.wasm`: rewrites the `contractspecv0` custom section of a contract
//! built with soroban-sdk 28, keeping every function and only the types and events whose spec
//! markers survived dead-code elimination in the data section. This is the post-build step the
//! SDK expects from its build system; without it the spec lists every type the SDK defines.

use std::process::ExitCode;

use stellar_xdr::{Limits, WriteXdr};

const SPEC_SECTION: &str = "contractspecv0";

fn read_leb128(bytes: &[u8], pos: &mut usize) -> Result<u32, String> {
    let mut result: u32 = 0;
    let mut shift = 0;
    loop {
        let byte = *bytes.get(*pos).ok_or("truncated LEB128")?;
        *pos += 1;
        result |= u32::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(result);
        }
        shift += 7;
        if shift > 28 {
            return Err("LEB128 too long".into());
        }
    }
}

fn write_leb128(out: &mut Vec<u8>, mut value: u32) {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Returns the wasm with its spec section filtered, and the entry counts before and after.
fn shake(wasm: &[u8]) -> Result<(Vec<u8>, usize, usize), String> {
    if wasm.len() < 8 || &wasm[0..4] != b"\0asm" {
        return Err("not a wasm module".into());
    }
    let markers = soroban_spec::shaking::find_all(wasm);
    let mut out = wasm[0..8].to_vec();
    let mut pos = 8;
    let (mut before, mut after) = (0, 0);
    while pos < wasm.len() {
        let id = wasm[pos];
        pos += 1;
        let size = read_leb128(wasm, &mut pos)? as usize;
        let end = pos.checked_add(size).filter(|e| *e <= wasm.len()).ok_or("truncated section")?;
        let payload = &wasm[pos..end];
        pos = end;
        if id == 0 {
            let mut p = 0;
            let name_len = read_leb128(payload, &mut p)? as usize;
            let name = payload.get(p..p + name_len).ok_or("truncated section name")?;
            if name == SPEC_SECTION.as_bytes() {
                let entries = soroban_spec::read::parse_raw(&payload[p + name_len..])
                    .map_err(|e| format!("bad spec section: {e}"))?;
                before = entries.len();
                let mut spec = Vec::new();
                for entry in soroban_spec::shaking::filter(entries, &markers) {
                    after += 1;
                    spec.extend(entry.to_xdr(Limits::none()).map_err(|e| e.to_string())?);
                }
                let mut section = Vec::new();
                write_leb128(&mut section, name_len as u32);
                section.extend_from_slice(name);
                section.extend(spec);
                out.push(0);
                write_leb128(&mut out, section.len() as u32);
                out.extend(section);
                continue;
            }
        }
        out.push(id);
        write_leb128(&mut out, size as u32);
        out.extend_from_slice(payload);
    }
    Ok((out, before, after))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, input, output] = args.as_slice() else {
        eprintln!("usage: spec-shake IN.wasm OUT.wasm");
        return ExitCode::from(2);
    };
    let result = std::fs::read(input)
        .map_err(|e| format!("{input}: {e}"))
        .and_then(|wasm| shake(&wasm))
        .and_then(|(shaken, before, after)| {
            std::fs::write(output, &shaken).map_err(|e| format!("{output}: {e}"))?;
            Ok((before, after))
        });
    match result {
        Ok((before, after)) => {
            eprintln!("spec-shake: {input}: {before} spec entries -> {after}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("spec-shake: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leb128_round_trips() {
        for v in [0u32, 1, 127, 128, 300, 16_384, u32::MAX >> 4] {
            let mut buf = Vec::new();
            write_leb128(&mut buf, v);
            let mut pos = 0;
            assert_eq!(read_leb128(&buf, &mut pos).unwrap(), v);
            assert_eq!(pos, buf.len());
        }
    }

    #[test]
    fn rejects_non_wasm() {
        assert!(shake(b"not wasm at all").is_err());
    }

    #[test]
    fn keeps_sections_without_a_spec_unchanged() {
        // Magic, version 1, one custom section "x" holding one byte.
        let wasm = [0, b'a', b's', b'm', 1, 0, 0, 0, 0, 3, 1, b'x', 7];
        let (out, before, after) = shake(&wasm).unwrap();
        assert_eq!(out, wasm);
        assert_eq!((before, after), (0, 0));
    }
}
