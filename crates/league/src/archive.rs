//! A bot's upload unpacked safely: a folder, a `.tar.gz` (or `.tar`) or a
//! `.zip`, each entry's path and type checked before anything is written.
//!
//! Refused: an absolute path, a `..`, a link leading out of the upload (a
//! hard link is unpacked as a copy of a file unpacked before it), a device
//! file, a FIFO or a socket, a file written through a link, and an upload
//! past its [`Bounds`]: the archive's size, the bytes unpacked and the
//! number of entries. Bytes are counted as they are
//! decompressed, never from an entry's header, so a decompression bomb is
//! stopped as soon as it passes the bound, with at most the bound written.
//! Unpacked files get mode 0644 (0755 where the archive made them
//! executable); nothing else of the archive's metadata (owners, times,
//! set-id bits) is kept.

use std::{
    fs::File,
    io::{self, Read, Write},
    os::unix::fs::PermissionsExt,
    path::{Component, Path, PathBuf},
};

/// How big an upload may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// The archive file's size, bytes.
    pub archive_bytes: u64,
    /// The bytes of all its files once unpacked (the stream decompressed, for
    /// a `.tar.gz`).
    pub unpacked_bytes: u64,
    /// Files, folders and links.
    pub entries: u64,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            archive_bytes: 20 << 20,
            unpacked_bytes: 100 << 20,
            entries: 5000,
        }
    }
}

/// What was unpacked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Unpacked {
    /// Files written.
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
}

/// The deepest path an upload may hold (components).
const MAX_DEPTH: usize = 32;
/// The longest path an upload may hold (bytes).
const MAX_PATH: usize = 1024;

/// What kind of upload a path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Folder,
    TarGz,
    Tar,
    Zip,
}

fn kind(src: &Path) -> Result<Kind, String> {
    let meta = std::fs::symlink_metadata(src).map_err(|e| format!("{}: {e}", src.display()))?;
    if meta.is_dir() {
        return Ok(Kind::Folder);
    }
    if !meta.is_file() {
        return Err(format!(
            "{}: not a folder, a .tar.gz or a .zip",
            src.display()
        ));
    }
    let mut head = [0u8; 262];
    let mut f = File::open(src).map_err(|e| format!("{}: {e}", src.display()))?;
    let n = read_up_to(&mut f, &mut head).map_err(|e| format!("{}: {e}", src.display()))?;
    let head = &head[..n];
    if head.starts_with(&[0x1f, 0x8b]) {
        Ok(Kind::TarGz)
    } else if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        Ok(Kind::Zip)
    } else if head.len() >= 262 && &head[257..262] == b"ustar" {
        Ok(Kind::Tar)
    } else {
        Err(
            "the upload is not a folder, a .tar.gz, a .tar or a .zip (its first bytes say \
             neither gzip, tar nor zip)"
                .into(),
        )
    }
}

fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// Unpacks `src` (a folder or an archive) into `dest`, an empty folder.
///
/// # Errors
/// Why the upload is refused; `dest` may then hold part of it (the caller
/// unpacks into a folder of its own and removes it).
pub fn unpack(src: &Path, dest: &Path, bounds: &Bounds) -> Result<Unpacked, String> {
    let kind = kind(src)?;
    if kind != Kind::Folder {
        let size = std::fs::metadata(src)
            .map_err(|e| format!("{}: {e}", src.display()))?
            .len();
        if size > bounds.archive_bytes {
            return Err(format!(
                "the archive is {size} bytes; the league takes at most {} bytes",
                bounds.archive_bytes
            ));
        }
    }
    let mut out = Writer::new(dest, bounds);
    let open = || File::open(src).map_err(|e| format!("{}: {e}", src.display()));
    match kind {
        Kind::Folder => copy_folder(src, Path::new(""), &mut out, 0)?,
        Kind::TarGz => {
            // Counted as decompressed: a bomb stops here, whatever the
            // headers say (tar padding and headers count too).
            let stream = Counted::new(
                flate2::read::GzDecoder::new(io::BufReader::new(open()?)),
                bounds.unpacked_bytes + (bounds.entries + 2) * 1024,
            );
            untar(stream, &mut out)?;
        }
        Kind::Tar => untar(io::BufReader::new(open()?), &mut out)?,
        Kind::Zip => unzip(open()?, &mut out)?,
    }
    Ok(out.done)
}

/// Unpacks a tar stream (e.g. a build's output) into `dest`, an empty
/// folder, with the same checks and bounds as an upload.
///
/// # Errors
/// As [`unpack`].
pub fn unpack_tar(stream: impl Read, dest: &Path, bounds: &Bounds) -> Result<Unpacked, String> {
    let mut out = Writer::new(dest, bounds);
    untar(
        Counted::new(stream, bounds.unpacked_bytes + (bounds.entries + 2) * 1024),
        &mut out,
    )?;
    Ok(out.done)
}

/// A reader that fails once more than `limit` bytes came through it.
struct Counted<R> {
    inner: R,
    left: u64,
    limit: u64,
}

impl<R> Counted<R> {
    fn new(inner: R, limit: u64) -> Counted<R> {
        Counted {
            inner,
            left: limit,
            limit,
        }
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n as u64 > self.left {
            return Err(io::Error::other(Bomb(self.limit)));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// The stream decompressed past its bound.
#[derive(Debug)]
struct Bomb(u64);

impl std::fmt::Display for Bomb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the archive decompresses to more than {} bytes (the league's bound on an unpacked \
             upload); refused",
            self.0
        )
    }
}

impl std::error::Error for Bomb {}

/// An io error as a refusal: a bomb says so, anything else is a corrupt
/// archive.
fn corrupt(e: &io::Error) -> String {
    if let Some(b) = e.get_ref().and_then(|i| i.downcast_ref::<Bomb>()) {
        return b.to_string();
    }
    format!("the archive is corrupt or truncated: {e}")
}

/// Writes checked entries under `root`, counting them.
struct Writer<'a> {
    root: PathBuf,
    bounds: &'a Bounds,
    done: Unpacked,
    entries: u64,
}

impl Writer<'_> {
    fn new<'a>(root: &Path, bounds: &'a Bounds) -> Writer<'a> {
        Writer {
            root: root.to_path_buf(),
            bounds,
            done: Unpacked::default(),
            entries: 0,
        }
    }

    fn count(&mut self) -> Result<(), String> {
        self.entries += 1;
        if self.entries > self.bounds.entries {
            return Err(format!(
                "the upload holds more than {} files and folders (the league's bound)",
                self.bounds.entries
            ));
        }
        Ok(())
    }

    /// The path under the root for `rel`, refusing one that writes through
    /// a link already unpacked.
    fn target(&self, rel: &Path) -> Result<PathBuf, String> {
        let mut at = self.root.clone();
        let parts: Vec<_> = rel.components().collect();
        for (i, c) in parts.iter().enumerate() {
            at.push(c);
            if i + 1 < parts.len()
                && let Ok(m) = std::fs::symlink_metadata(&at)
                && !m.is_dir()
            {
                return Err(format!(
                    "`{}` lies under `{}`, which is not a folder (a link?)",
                    rel.display(),
                    at.strip_prefix(&self.root).unwrap_or(&at).display()
                ));
            }
        }
        Ok(at)
    }

    fn parents(&self, at: &Path) -> Result<(), String> {
        if let Some(p) = at.parent() {
            std::fs::create_dir_all(p).map_err(|e| format!("{}: {e}", p.display()))?;
        }
        Ok(())
    }

    fn dir(&mut self, rel: &Path) -> Result<(), String> {
        self.count()?;
        if rel.as_os_str().is_empty() {
            return Ok(());
        }
        let at = self.target(rel)?;
        if let Ok(m) = std::fs::symlink_metadata(&at)
            && !m.is_dir()
        {
            return Err(format!("`{}` is given twice", rel.display()));
        }
        std::fs::create_dir_all(&at).map_err(|e| format!("{}: {e}", at.display()))
    }

    fn file(&mut self, rel: &Path, executable: bool, data: &mut dyn Read) -> Result<(), String> {
        self.count()?;
        let at = self.target(rel)?;
        self.parents(&at)?;
        if std::fs::symlink_metadata(&at).is_ok() {
            return Err(format!("`{}` is given twice", rel.display()));
        }
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&at)
            .map_err(|e| format!("{}: {e}", at.display()))?;
        let left = self.bounds.unpacked_bytes - self.done.bytes;
        let mut limited = data.take(left + 1);
        let n = copy(&mut limited, &mut f, left)?;
        if n > left {
            return Err(format!(
                "the upload unpacks to more than {} bytes (the league's bound); refused at `{}`",
                self.bounds.unpacked_bytes,
                rel.display()
            ));
        }
        self.done.bytes += n;
        self.done.files += 1;
        let mode = if executable { 0o755 } else { 0o644 };
        f.set_permissions(std::fs::Permissions::from_mode(mode))
            .map_err(|e| format!("{}: {e}", at.display()))
    }

    fn link(&mut self, rel: &Path, target: &Path) -> Result<(), String> {
        self.count()?;
        stays_inside(rel, target)?;
        let at = self.target(rel)?;
        self.parents(&at)?;
        std::os::unix::fs::symlink(target, &at).map_err(|e| format!("{}: {e}", at.display()))
    }
}

/// Copies `from` to `to`, writing at most `cap` bytes; returns the bytes
/// read.
fn copy(from: &mut dyn Read, to: &mut File, cap: u64) -> Result<u64, String> {
    let mut buf = vec![0u8; 64 << 10];
    let mut n = 0u64;
    loop {
        let k = match from.read(&mut buf) {
            Ok(0) => return Ok(n),
            Ok(k) => k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(corrupt(&e)),
        };
        let room = cap.saturating_sub(n).min(k as u64) as usize;
        to.write_all(&buf[..room])
            .map_err(|e| format!("writing the upload: {e}"))?;
        n += k as u64;
    }
}

/// Checks an entry's path: relative, no `..`, not too deep or long.
///
/// # Errors
/// Why the path is refused.
pub fn check_path(raw: &Path) -> Result<PathBuf, String> {
    let shown = whistle_protocol::limits::truncate(&raw.display().to_string(), 200);
    if raw.as_os_str().len() > MAX_PATH {
        return Err(format!("the path `{shown}` is too long"));
    }
    let mut out = PathBuf::new();
    for c in raw.components() {
        match c {
            Component::Normal(p) => out.push(p),
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => {
                return Err(format!(
                    "the path `{shown}` is absolute: an upload's paths are relative to its root"
                ));
            }
            Component::ParentDir => {
                return Err(format!(
                    "the path `{shown}` holds `..`: an upload's paths stay inside it"
                ));
            }
        }
    }
    if out.components().count() > MAX_DEPTH {
        return Err(format!(
            "the path `{shown}` is deeper than {MAX_DEPTH} folders"
        ));
    }
    Ok(out)
}

/// Checks that the link `rel` to `target` stays inside the upload.
fn stays_inside(rel: &Path, target: &Path) -> Result<(), String> {
    let shown = || {
        format!(
            "the link `{}` -> `{}`",
            rel.display(),
            whistle_protocol::limits::truncate(&target.display().to_string(), 200)
        )
    };
    if target.is_absolute() {
        return Err(format!("{} leads out of the upload", shown()));
    }
    let mut depth: Vec<_> = rel
        .parent()
        .map(|p| p.components().collect())
        .unwrap_or_default();
    for c in target.components() {
        match c {
            Component::Normal(_) => depth.push(c),
            Component::CurDir => {}
            Component::ParentDir => {
                if depth.pop().is_none() {
                    return Err(format!("{} leads out of the upload", shown()));
                }
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(format!("{} leads out of the upload", shown()));
            }
        }
    }
    Ok(())
}

fn untar(stream: impl Read, out: &mut Writer<'_>) -> Result<(), String> {
    use tar::EntryType as T;
    let mut archive = tar::Archive::new(stream);
    let entries = archive.entries().map_err(|e| corrupt(&e))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| corrupt(&e))?;
        let raw = entry.path().map_err(|e| corrupt(&e))?.into_owned();
        let rel = check_path(&raw)?;
        let kind = entry.header().entry_type();
        match kind {
            T::Regular | T::Continuous => {
                let exec = entry.header().mode().is_ok_and(|m| m & 0o111 != 0);
                out.file(&rel, exec, &mut entry)?;
            }
            T::Directory => out.dir(&rel)?,
            T::Symlink => {
                let target = entry
                    .link_name()
                    .map_err(|e| corrupt(&e))?
                    .ok_or_else(|| format!("the link `{}` has no target", rel.display()))?
                    .into_owned();
                out.link(&rel, &target)?;
            }
            T::Link => {
                // A hard link to a file unpacked before it (a build's
                // output holds them): unpacked as a copy, counted again.
                let target = entry
                    .link_name()
                    .map_err(|e| corrupt(&e))?
                    .map(|t| check_path(&t))
                    .transpose()?
                    .ok_or_else(|| format!("the link `{}` has no target", rel.display()))?;
                let from = out.target(&target)?;
                let meta = std::fs::symlink_metadata(&from).ok();
                if !meta.as_ref().is_some_and(std::fs::Metadata::is_file) {
                    return Err(format!(
                        "`{}` is a hard link to `{}`, which is no file unpacked before it",
                        rel.display(),
                        target.display()
                    ));
                }
                let exec = meta.is_some_and(|m| m.permissions().mode() & 0o111 != 0);
                let mut f = File::open(&from).map_err(|e| format!("{}: {e}", from.display()))?;
                out.file(&rel, exec, &mut f)?;
            }
            T::Char | T::Block | T::Fifo => {
                return Err(format!(
                    "`{}` is a device file or a FIFO: an upload holds files, folders and links \
                     only",
                    rel.display()
                ));
            }
            // Extended headers that `entries` did not fold into an entry.
            T::XGlobalHeader | T::XHeader | T::GNULongName | T::GNULongLink => {}
            other => {
                return Err(format!(
                    "`{}` is a tar entry of type {other:?}: an upload holds files, folders and \
                     links only",
                    rel.display()
                ));
            }
        }
    }
    Ok(())
}

fn unzip(file: File, out: &mut Writer<'_>) -> Result<(), String> {
    let mut zip = zip::ZipArchive::new(io::BufReader::new(file))
        .map_err(|e| format!("the archive is corrupt or truncated: {e}"))?;
    // The central directory's count, before anything is read.
    if zip.len() as u64 > out.bounds.entries {
        return Err(format!(
            "the upload holds {} files and folders; the league takes at most {}",
            zip.len(),
            out.bounds.entries
        ));
    }
    for i in 0..zip.len() {
        let mut f = zip
            .by_index(i)
            .map_err(|e| format!("the archive is corrupt or truncated: {e}"))?;
        let raw = PathBuf::from(f.name());
        let rel = check_path(&raw)?;
        let mode = f.unix_mode().unwrap_or(0);
        let kind = mode & 0o170_000;
        if f.is_dir() {
            out.dir(&rel)?;
        } else if kind == 0o120_000 {
            let mut target = Vec::new();
            (&mut f)
                .take(MAX_PATH as u64 + 1)
                .read_to_end(&mut target)
                .map_err(|e| corrupt(&e))?;
            if target.len() > MAX_PATH {
                return Err(format!("the link `{}` is too long", rel.display()));
            }
            let target = PathBuf::from(String::from_utf8_lossy(&target).into_owned());
            out.link(&rel, &target)?;
        } else if kind == 0 || kind == 0o100_000 {
            out.file(&rel, mode & 0o111 != 0, &mut f)?;
        } else {
            return Err(format!(
                "`{}` is a device file, a FIFO or a socket: an upload holds files, folders and \
                 links only",
                rel.display()
            ));
        }
    }
    Ok(())
}

fn copy_folder(src: &Path, rel: &Path, out: &mut Writer<'_>, depth: usize) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!(
            "`{}` is deeper than {MAX_DEPTH} folders",
            rel.display()
        ));
    }
    out.dir(rel)?;
    let at = src.join(rel);
    let mut names: Vec<_> = std::fs::read_dir(&at)
        .map_err(|e| format!("{}: {e}", at.display()))?
        .map(|e| e.map(|e| e.file_name()))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", at.display()))?;
    names.sort();
    for name in names {
        let r = rel.join(&name);
        let p = src.join(&r);
        let meta = std::fs::symlink_metadata(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        let t = meta.file_type();
        if t.is_dir() {
            copy_folder(src, &r, out, depth + 1)?;
        } else if t.is_symlink() {
            let target = std::fs::read_link(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            out.link(&r, &target)?;
        } else if t.is_file() {
            let mut f = File::open(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            out.file(&r, meta.permissions().mode() & 0o111 != 0, &mut f)?;
        } else {
            return Err(format!(
                "`{}` is a device file, a FIFO or a socket: an upload holds files, folders and \
                 links only",
                r.display()
            ));
        }
    }
    Ok(())
}

/// The SHA-256 of an unpacked tree: every entry's path, kind, executable bit
/// and content, in path order, so that one bot packed as a folder, a
/// `.tar.gz` or a `.zip` hashes alike.
///
/// # Errors
/// A file that cannot be read.
pub fn tree_hash(root: &Path) -> Result<String, String> {
    let mut ctx = ring::digest::Context::new(&ring::digest::SHA256);
    hash_dir(root, Path::new(""), &mut ctx)?;
    Ok(ctx
        .finish()
        .as_ref()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

fn hash_dir(root: &Path, rel: &Path, ctx: &mut ring::digest::Context) -> Result<(), String> {
    let at = root.join(rel);
    let mut names: Vec<_> = std::fs::read_dir(&at)
        .map_err(|e| format!("{}: {e}", at.display()))?
        .map(|e| e.map(|e| e.file_name()))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", at.display()))?;
    names.sort();
    for name in names {
        let r = rel.join(&name);
        let p = root.join(&r);
        let meta = std::fs::symlink_metadata(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        let path = r.to_string_lossy();
        let t = meta.file_type();
        if t.is_dir() {
            ctx.update(format!("d {} {path}\0", path.len()).as_bytes());
            hash_dir(root, &r, ctx)?;
        } else if t.is_symlink() {
            let target = std::fs::read_link(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            let target = target.to_string_lossy();
            ctx.update(format!("l {} {path}\0{} {target}\0", path.len(), target.len()).as_bytes());
        } else {
            let exec = meta.permissions().mode() & 0o111 != 0;
            ctx.update(
                format!(
                    "f {} {path}\0{} {}\0",
                    path.len(),
                    u8::from(exec),
                    meta.len()
                )
                .as_bytes(),
            );
            let mut f = File::open(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            let mut buf = vec![0u8; 64 << 10];
            loop {
                match f.read(&mut buf) {
                    Ok(0) => break,
                    Ok(k) => ctx.update(&buf[..k]),
                    Err(e) => return Err(format!("{}: {e}", p.display())),
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tar_gz(entries: &[(&str, tar::EntryType, &[u8], Option<&str>)]) -> Vec<u8> {
        let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        let mut b = tar::Builder::new(gz);
        for (path, kind, data, link) in entries {
            let mut h = tar::Header::new_gnu();
            h.set_entry_type(*kind);
            h.set_size(data.len() as u64);
            h.set_mode(0o644);
            // Written raw: the builder itself refuses `..` and absolute
            // paths, which is what these tests send.
            let name = h.as_old_mut().name.as_mut();
            name[..path.len()].copy_from_slice(path.as_bytes());
            if let Some(l) = link {
                h.set_link_name(l).unwrap();
            }
            h.set_cksum();
            b.append(&h, *data).unwrap();
        }
        b.into_inner().unwrap().finish().unwrap()
    }

    fn unpack_bytes(
        bytes: &[u8],
        name: &str,
        bounds: &Bounds,
    ) -> (tempfile::TempDir, Result<Unpacked, String>) {
        let t = tempfile::tempdir().unwrap();
        let src = t.path().join(name);
        std::fs::write(&src, bytes).unwrap();
        let dest = t.path().join("out");
        std::fs::create_dir(&dest).unwrap();
        let r = unpack(&src, &dest, bounds);
        (t, r)
    }

    #[test]
    fn a_good_tar_gz_unpacks_and_hashes_like_its_folder() {
        let bytes = tar_gz(&[
            ("bot.py", tar::EntryType::Regular, b"print(1)\n", None),
            ("lib/", tar::EntryType::Directory, b"", None),
            ("lib/a.txt", tar::EntryType::Regular, b"a", None),
            ("lib/b", tar::EntryType::Symlink, b"", Some("a.txt")),
            ("lib/h", tar::EntryType::Link, b"", Some("lib/a.txt")),
        ]);
        let (t, r) = unpack_bytes(&bytes, "u.tar.gz", &Bounds::default());
        assert_eq!(r.unwrap().files, 3);
        let out = t.path().join("out");
        assert_eq!(std::fs::read(out.join("lib/b")).unwrap(), b"a");
        // A hard link is a copy.
        assert_eq!(std::fs::read(out.join("lib/h")).unwrap(), b"a");
        assert!(
            !std::fs::symlink_metadata(out.join("lib/h"))
                .unwrap()
                .is_symlink()
        );
        let again = t.path().join("again");
        std::fs::create_dir(&again).unwrap();
        unpack(&out, &again, &Bounds::default()).unwrap();
        assert_eq!(tree_hash(&out).unwrap(), tree_hash(&again).unwrap());
        std::fs::write(again.join("bot.py"), "print(2)\n").unwrap();
        assert_ne!(tree_hash(&out).unwrap(), tree_hash(&again).unwrap());
    }

    #[test]
    fn hostile_paths_and_types_are_refused() {
        use tar::EntryType as T;
        let cases: &[(&str, T, Option<&str>, &str)] = &[
            ("../evil", T::Regular, None, "`..`"),
            ("/etc/evil", T::Regular, None, "absolute"),
            ("out", T::Symlink, Some("../../x"), "leads out"),
            ("abs", T::Symlink, Some("/etc"), "leads out"),
            ("hard", T::Link, Some("/etc/passwd"), "absolute"),
            (
                "hard",
                T::Link,
                Some("nothing"),
                "no file unpacked before it",
            ),
            ("dev", T::Char, None, "device"),
            ("fifo", T::Fifo, None, "device file or a FIFO"),
        ];
        for (path, kind, link, says) in cases {
            let bytes = tar_gz(&[(path, *kind, b"x", *link)]);
            let (t, r) = unpack_bytes(&bytes, "u.tgz", &Bounds::default());
            let e = r.unwrap_err();
            assert!(e.contains(says), "{path}: {e}");
            assert!(!t.path().join("evil").exists());
        }
        // A file written through a link made by an earlier entry.
        let bytes = tar_gz(&[
            ("l", T::Symlink, b"", Some("d")),
            ("l/x", T::Regular, b"x", None),
        ]);
        let e = unpack_bytes(&bytes, "u.tgz", &Bounds::default())
            .1
            .unwrap_err();
        assert!(e.contains("not a folder"), "{e}");
    }

    #[test]
    fn a_bomb_stops_at_the_bound() {
        // 64 MiB of zeros in one entry, about 64 KiB compressed.
        let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let mut b = tar::Builder::new(gz);
        let mut h = tar::Header::new_gnu();
        h.set_path("zeros").unwrap();
        h.set_size(64 << 20);
        h.set_mode(0o644);
        h.set_cksum();
        b.append(&h, io::repeat(0).take(64 << 20)).unwrap();
        let bytes = b.into_inner().unwrap().finish().unwrap();
        assert!(bytes.len() < 1 << 20);
        let bounds = Bounds {
            unpacked_bytes: 1 << 20,
            ..Bounds::default()
        };
        let (t, r) = unpack_bytes(&bytes, "bomb.tar.gz", &bounds);
        let e = r.unwrap_err();
        assert!(e.contains("more than 1048576 bytes"), "{e}");
        let written = std::fs::metadata(t.path().join("out/zeros")).map_or(0, |m| m.len());
        assert!(written <= 1 << 20, "{written}");
    }

    #[test]
    fn corrupt_and_unknown_archives_are_refused() {
        let mut bytes = tar_gz(&[("a", tar::EntryType::Regular, &[7u8; 5000], None)]);
        bytes.truncate(bytes.len() / 2);
        let e = unpack_bytes(&bytes, "u.tgz", &Bounds::default())
            .1
            .unwrap_err();
        assert!(e.contains("corrupt"), "{e}");
        let e = unpack_bytes(b"hello", "u.rar", &Bounds::default())
            .1
            .unwrap_err();
        assert!(e.contains("not a folder"), "{e}");
        let e = unpack_bytes(b"PK\x03\x04garbage", "u.zip", &Bounds::default())
            .1
            .unwrap_err();
        assert!(e.contains("corrupt"), "{e}");
    }

    #[test]
    fn zip_slip_and_zip_counts_are_refused() {
        use zip::write::SimpleFileOptions;
        let mut w = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
        w.start_file("ok.txt", SimpleFileOptions::default())
            .unwrap();
        w.write_all(b"ok").unwrap();
        w.start_file("../../slip.txt", SimpleFileOptions::default())
            .unwrap();
        w.write_all(b"slip").unwrap();
        let bytes = w.finish().unwrap().into_inner();
        let (t, r) = unpack_bytes(&bytes, "u.zip", &Bounds::default());
        assert!(r.unwrap_err().contains("`..`"));
        assert!(!t.path().join("slip.txt").exists());

        let mut w = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
        for i in 0..20 {
            w.start_file(format!("f{i}"), SimpleFileOptions::default())
                .unwrap();
        }
        let bytes = w.finish().unwrap().into_inner();
        let bounds = Bounds {
            entries: 10,
            ..Bounds::default()
        };
        let e = unpack_bytes(&bytes, "u.zip", &bounds).1.unwrap_err();
        assert!(e.contains("at most 10"), "{e}");
    }
}
