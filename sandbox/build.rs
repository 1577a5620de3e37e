//! Build-time facts for getVersionInfo: the git commit the node is built from
//! (`SANDBOX_COMMIT_HASH`, "unknown" when the source is not a git checkout or git is missing)
//! and the build time in unix seconds (`SANDBOX_BUILD_UNIX`; `SOURCE_DATE_EPOCH` when set).
//! The script runs again when HEAD moves (checkout, commit, reset, also in a worktree, whose
//! HEAD lives in its own git dir) and when the sources change, so both stay current.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git").arg("-C").arg(dir).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// A file inside the git dir (`git rev-parse --git-path`, relative to `dir` unless absolute).
fn git_path(dir: &Path, name: &str) -> Option<PathBuf> {
    let p = PathBuf::from(git(dir, &["rev-parse", "--git-path", name])?);
    Some(if p.is_absolute() { p } else { dir.join(p) })
}

fn watch(p: &Path) {
    println!("cargo:rerun-if-changed={}", p.display());
}

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    watch(&dir.join("src"));
    watch(&dir.join("Cargo.toml"));
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");

    let commit = git(&dir, &["rev-parse", "HEAD"]);
    if commit.is_some() {
        // HEAD itself (a checkout rewrites it), the branch it names (a commit rewrites that, or
        // creates it when the branch only lived in packed-refs), and packed-refs.
        let mut files = vec![git_path(&dir, "HEAD"), git_path(&dir, "packed-refs")];
        if let Some(branch) = git(&dir, &["symbolic-ref", "-q", "HEAD"]) {
            files.push(git_path(&dir, &branch).map(|p| if p.exists() { p } else { p.parent().map(Path::to_path_buf).unwrap_or(p) }));
        }
        // Only existing paths: cargo reruns a script every build for a path that is missing.
        for p in files.into_iter().flatten().filter(|p| p.exists()) {
            watch(&p);
        }
    }
    println!("cargo:rustc-env=SANDBOX_COMMIT_HASH={}", commit.as_deref().unwrap_or("unknown"));

    let built = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0));
    println!("cargo:rustc-env=SANDBOX_BUILD_UNIX={built}");
}
