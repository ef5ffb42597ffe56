//! The machine's counts and the page cache, each tried by real sandboxed
//! programs: a bot that locks memory while another, alive at the same
//! time, reads the machine's memory counts in its `/proc`; a bot that asks
//! the kernel to drop a file of its folder from the page cache, checked
//! from outside with `fincore`.

use std::{
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
    time::Duration,
};

use whistle_sandbox::{Limits, Mode, Spec};

mod common;
use common::{LAUNCHER, launch, modes, start_piped};

const PYTHON: &str = "/usr/bin/python3";

struct Bot {
    _root: tempfile::TempDir,
    dir: PathBuf,
    scratch: PathBuf,
}

fn bot() -> Bot {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("bot");
    let scratch = root.path().join("scratch");
    for d in [&dir, &scratch] {
        std::fs::create_dir_all(d).unwrap();
    }
    // Run as root, the bot is another user: its folder must be open.
    for d in [root.path(), &dir] {
        let _ = Command::new("chmod").arg("755").arg(d).status();
    }
    Bot {
        _root: root,
        dir,
        scratch,
    }
}

fn spec(mode: Mode, b: &Bot, program: &str, args: &[&str]) -> Spec {
    let home = b.scratch.display().to_string();
    Spec {
        mode,
        program: PathBuf::from(program),
        args: args.iter().map(|s| s.to_string()).collect(),
        dir: b.dir.clone(),
        env: vec![
            ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
            ("HOME".into(), home.clone()),
            ("TMPDIR".into(), home),
            ("LANG".into(), "C.UTF-8".into()),
        ],
        read: Vec::new(),
        scratch: b.scratch.clone(),
        limits: Limits {
            scratch_mib: 16,
            memory_mib: 384,
            processes: 32,
            ..Limits::default()
        },
        referee_port: None,
        stdio: true,
    }
}

fn run(s: &Spec) -> Output {
    launch(s.mode, || {
        s.command(Path::new(LAUNCHER)).stdin(Stdio::null()).output()
    })
    .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout: {}\nstderr: {}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn have_python() -> bool {
    Path::new(PYTHON).exists()
}

/// What a bot sees of the machine's counts in its `/proc`, twice, half a
/// second apart, while the host forks, allocates, locks memory and reads a
/// file between the two looks: every count is hidden (empty or absent) or
/// constant.
#[test]
fn the_machines_counts_in_a_bots_proc_are_hidden_or_constant() {
    if !modes().contains(&Mode::Namespaces) {
        eprintln!("no namespace sandbox here (only it has a /proc): nothing to test");
        return;
    }
    let b = bot();
    let files = "loadavg uptime vmstat meminfo stat zoneinfo buddyinfo pagetypeinfo diskstats \
                 interrupts softirqs schedstat swaps pressure/cpu pressure/memory pressure/io \
                 sys/fs/file-nr sys/fs/inode-nr sys/fs/inode-state sys/fs/dentry-state \
                 sys/fs/aio-nr sys/kernel/random/entropy_avail";
    let script = format!(
        "for f in {files}; do printf '== %s ' $f; if [ -e /proc/$f ]; then \
         printf '%s' \"$(cat /proc/$f 2>&1 | md5sum | cut -c1-8)\"; \
         [ -s /proc/$f ] || printf ' empty'; else printf absent; fi; echo; done; \
         echo SEP; sleep 0.5; \
         for f in {files}; do printf '== %s ' $f; if [ -e /proc/$f ]; then \
         printf '%s' \"$(cat /proc/$f 2>&1 | md5sum | cut -c1-8)\"; \
         [ -s /proc/$f ] || printf ' empty'; else printf absent; fi; echo; done; \
         echo MEMINFO; cat /proc/meminfo; echo STAT; cat /proc/stat; \
         for f in vmstat loadavg uptime sys/fs/file-nr pressure/cpu; do \
         cat /proc/$f >/dev/null 2>&1 && echo READ-$f; done; \
         echo WRITE; echo 1 > /proc/meminfo 2>&1 || echo refused"
    );
    let s = spec(Mode::Namespaces, &b, "/bin/sh", &["-c", &script]);
    let child = start_piped(&s);
    // Move the machine's counts meanwhile: processes, memory, the page
    // cache, the disk.
    let stir = std::thread::spawn(|| {
        let end = std::time::Instant::now() + Duration::from_millis(700);
        let mut kept = Vec::new();
        while std::time::Instant::now() < end {
            let _ = Command::new("/bin/true").status();
            kept.push(vec![7u8; 4 << 20]);
            let _ = std::fs::read("/proc/self/exe");
        }
        kept.len()
    });
    let o = child.wait_with_output().unwrap();
    assert!(stir.join().unwrap() > 0);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{}", text(&o));
    let (first, rest) = out.split_once("SEP\n").expect("two looks");
    let second = rest.split("MEMINFO").next().unwrap();
    assert_eq!(first, second, "a count moved between two looks:\n{out}");
    for line in first.lines() {
        let name = line.split_whitespace().nth(1).unwrap();
        let hidden = line.ends_with("empty") || line.ends_with("absent");
        assert!(
            hidden || name == "meminfo" || name == "stat",
            "/proc/{name} shows the machine: {line}\n{out}"
        );
    }
    // meminfo is the bot's own limit, all free; stat its processors, no time.
    let meminfo = out.split("MEMINFO\n").nth(1).unwrap();
    let meminfo = meminfo.split("STAT\n").next().unwrap();
    let kib = |key: &str| -> u64 {
        meminfo
            .lines()
            .find(|l| l.starts_with(&format!("{key}:")))
            .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
            .unwrap_or_else(|| panic!("{key} in {meminfo}"))
    };
    assert_eq!(kib("MemTotal"), 384 * 1024, "{meminfo}");
    assert_eq!(kib("MemAvailable"), 384 * 1024, "{meminfo}");
    assert!(!meminfo.contains("Mlocked"), "{meminfo}");
    let stat = out.split("STAT\n").nth(1).unwrap();
    let stat = stat.split("WRITE").next().unwrap();
    let cpus = stat
        .lines()
        .filter(|l| l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
        .count();
    assert!(cpus >= 1, "{stat}");
    assert!(stat.contains("\nprocesses 0\n"), "{stat}");
    assert!(stat.contains("\nctxt 0\n"), "{stat}");
    assert!(
        out.contains("refused"),
        "a bot wrote its /proc/meminfo:\n{out}"
    );
    assert!(
        !out.contains("READ-"),
        "a hidden count could be opened:\n{out}"
    );
}

/// One bot locks memory in 100 ms slots while another, alive at the same
/// time, reads the machine's count of locked pages (`nr_mlock` in
/// `/proc/vmstat`, `Mlocked` in `/proc/meminfo`): the lock is refused and
/// the reader finds no count to read.
#[test]
fn a_bot_that_locks_memory_moves_no_count_another_bot_reads() {
    if !have_python() {
        eprintln!("no {PYTHON}: nothing to test");
        return;
    }
    for mode in modes() {
        let b = bot();
        let sender = "import ctypes, mmap, time\n\
            libc = ctypes.CDLL(None, use_errno=True)\n\
            n = 1500 * 4096\n\
            buf = mmap.mmap(-1, n); buf.write(b'x' * n)\n\
            addr = ctypes.addressof(ctypes.c_char.from_buffer(buf))\n\
            results = set()\n\
            for i in range(20):\n\
            \x20   r = libc.mlock(ctypes.c_void_p(addr), ctypes.c_size_t(n))\n\
            \x20   results.add((r, ctypes.get_errno()))\n\
            \x20   time.sleep(0.05); libc.munlock(ctypes.c_void_p(addr), ctypes.c_size_t(n)); time.sleep(0.05)\n\
            r = libc.mlockall(3); results.add(('all', r, ctypes.get_errno()))\n\
            print('SENT', sorted(map(str, results)))\n";
        let reader = "import time\n\
            def look():\n\
            \x20   out = []\n\
            \x20   for f in ('/proc/vmstat', '/proc/meminfo'):\n\
            \x20       try:\n\
            \x20           out.append([l for l in open(f) if l.startswith(('nr_mlock', 'Mlocked'))])\n\
            \x20       except OSError as e:\n\
            \x20           out.append(type(e).__name__)\n\
            \x20   return repr(out)\n\
            seen = set()\n\
            end = time.time() + 2.5\n\
            while time.time() < end:\n\
            \x20   seen.add(look()); time.sleep(0.01)\n\
            print('SEEN', len(seen), sorted(seen))\n";
        let rs = spec(mode, &b, PYTHON, &["-c", reader]);
        let r = start_piped(&rs);
        std::thread::sleep(Duration::from_millis(300));
        let b2 = bot();
        let sent = run(&spec(mode, &b2, PYTHON, &["-c", sender]));
        let read = r.wait_with_output().unwrap();
        let sent_text = String::from_utf8_lossy(&sent.stdout).into_owned();
        let read_text = String::from_utf8_lossy(&read.stdout).into_owned();
        assert!(sent.status.success(), "{mode:?}: {}", text(&sent));
        assert!(read.status.success(), "{mode:?}: {}", text(&read));
        // Every lock refused (EPERM): nothing was locked.
        assert!(
            sent_text.contains("(-1, 1)")
                && !sent_text.contains("(0,")
                && !sent_text.contains(", 0,"),
            "{mode:?}: a sandboxed bot locked memory: {sent_text}"
        );
        assert!(
            read_text.starts_with("SEEN 1 "),
            "{mode:?}: the reader saw the counts change: {read_text}"
        );
        if mode == Mode::Namespaces {
            assert!(
                !read_text.contains("nr_mlock") && !read_text.contains("Mlocked"),
                "{mode:?}: the machine's locked pages are readable: {read_text}"
            );
        }
    }
}

/// Bytes of `file` in the page cache (`fincore`, from outside any sandbox).
fn cached(file: &Path) -> Option<u64> {
    let o = Command::new("fincore")
        .args(["--bytes", "--noheadings", "--output", "RES"])
        .arg(file)
        .output()
        .ok()?;
    String::from_utf8_lossy(&o.stdout).trim().parse().ok()
}

/// A bot's folder holds a file the host has just read (all of it in the
/// page cache). The bot asks the kernel, every way it has, to drop it
/// (`posix_fadvise` `DONTNEED` and `NOREUSE`, `madvise` `MADV_PAGEOUT`,
/// `MADV_COLD` and `MADV_DONTNEED`, which the filter lets through: it only
/// unmaps, on a mapping of it whose every page it touched) and to say what of it is cached
/// (`mincore`, `cachestat`): the advice succeeds and drops nothing, and
/// the questions are refused as by a kernel without the calls.
#[test]
fn a_bot_cannot_drop_a_file_of_its_folder_from_the_page_cache() {
    if !have_python() || cached(Path::new(PYTHON)).is_none() {
        eprintln!("no {PYTHON} or no fincore: nothing to test");
        return;
    }
    for mode in modes() {
        let b = bot();
        let file = b.dir.join("chan.bin");
        let size: usize = 8 << 20;
        let bytes: Vec<u8> = (0..size)
            .map(|i| ((i * 2_654_435_761) >> 13) as u8)
            .collect();
        std::fs::write(&file, &bytes).unwrap();
        let _ = Command::new("chmod").arg("644").arg(&file).status();
        // In the page cache, all of it.
        Command::new("sync").status().unwrap();
        let _ = std::fs::read(&file).unwrap();
        let before = cached(&file).unwrap();
        assert!(before >= size as u64 * 9 / 10, "{before} of {size} cached");
        let script = "import ctypes, mmap, os, sys\n\
            libc = ctypes.CDLL(None, use_errno=True)\n\
            f = sys.argv[1]; fd = os.open(f, os.O_RDONLY); n = os.fstat(fd).st_size\n\
            m = mmap.mmap(fd, n, prot=mmap.PROT_READ)\n\
            print('touched', sum(m[i] for i in range(0, n, 4096)) >= 0)\n\
            for advice in (4, 20, 21):\n\
            \x20   print('madvise', advice, m.madvise(advice) or 0)\n\
            m.close()\n\
            vec = ctypes.create_string_buffer(n // 4096)\n\
            libc.mmap.restype = ctypes.c_void_p\n\
            base = libc.mmap(None, ctypes.c_size_t(n), 1, 1, fd, ctypes.c_long(0))\n\
            r = libc.mincore(ctypes.c_void_p(base), ctypes.c_size_t(n), vec)\n\
            print('mincore', r, ctypes.get_errno())\n\
            st = ctypes.create_string_buffer(64); rng = (ctypes.c_uint64 * 2)(0, 0)\n\
            r = libc.syscall(451, fd, rng, st, 0)\n\
            print('cachestat', r, ctypes.get_errno())\n\
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)\n\
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_NOREUSE)\n\
            print('fadvise ok')\n";
        let s = spec(
            mode,
            &b,
            PYTHON,
            &["-c", script, &file.display().to_string()],
        );
        let o = run(&s);
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(o.status.success(), "{mode:?}: {}", text(&o));
        assert!(out.contains("fadvise ok"), "{mode:?}: {out}");
        assert!(
            out.contains("madvise 4 0")
                && out.contains("madvise 20 0")
                && out.contains("madvise 21 0"),
            "{mode:?}: {out}"
        );
        assert!(
            out.contains("mincore -1 38"),
            "{mode:?}: mincore answered: {out}"
        );
        assert!(
            out.contains("cachestat -1 38"),
            "{mode:?}: cachestat answered: {out}"
        );
        let after = cached(&file).unwrap();
        assert!(
            after >= before * 9 / 10,
            "{mode:?}: the bot dropped its file from the page cache: {before} then {after} bytes cached\n{out}"
        );
        // The same program outside any sandbox does drop it (the test is real).
        let o = Command::new(PYTHON)
            .args(["-c", script, &file.display().to_string()])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o));
        let unsandboxed = cached(&file).unwrap();
        assert!(
            unsandboxed < before / 2,
            "unsandboxed, the advice dropped nothing ({before} then {unsandboxed}): {}",
            text(&o)
        );
    }
}
