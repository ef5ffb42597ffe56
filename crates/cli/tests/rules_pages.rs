//! The rules pages for bot authors (`docs/rules/`): every decision id that
//! the source, the docs or the command line cites is defined on its game's
//! page, once; `whistle games GAME` names the page and `--rules` prints it.

mod common;

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::{Path, PathBuf},
};

use common::{Scratch, whistle, whistle_ok};
use whistle_rules::Variant;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The page of the game whose ids start with `letter`.
fn page_of(letter: char) -> &'static str {
    match letter {
        'Y' => "yogi",
        'O' => "oneonta",
        'I' => "israeli",
        'H' => "honeymoon",
        'L' => "illustrated",
        _ => unreachable!(),
    }
}

/// Every decision id in `text`: one of `YOIHL`, then one or two digits, with
/// neither a letter nor a digit on either side.
fn cited_ids(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut ids = Vec::new();
    for i in 0..b.len() {
        if !b"YOIHL".contains(&b[i]) || (i > 0 && b[i - 1].is_ascii_alphanumeric()) {
            continue;
        }
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        let end = i + 1 + digits;
        if (1..=2).contains(&digits) && b.get(end).is_none_or(|c| !c.is_ascii_alphanumeric()) {
            ids.push(text[i..end].to_string());
        }
    }
    ids
}

/// The ids each page defines (`<a id="i4"></a>**I4 · ...`), with the page.
fn defined_ids() -> BTreeMap<String, Vec<String>> {
    let mut defined: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for v in Variant::ALL {
        let page = root().join(format!("docs/rules/{v}.md"));
        let text = fs::read_to_string(&page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
        for (n, _) in text.match_indices("<a id=\"") {
            let rest = &text[n + 7..];
            let anchor = &rest[..rest.find('"').unwrap()];
            let id = anchor.to_uppercase();
            assert!(
                rest.starts_with(&format!("{anchor}\"></a>**{id} ")),
                "{v}.md: the anchor {anchor} does not open the definition of {id}"
            );
            defined.entry(id).or_default().push(v.to_string());
        }
    }
    defined
}

/// The project's text files: source, docs, examples, tournaments, kits;
/// what git ignores (a demo's `replays/demo/`, build output) is not the
/// project's. Without git, every file under `dir` but build folders.
fn project_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let listed = std::process::Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(dir)
        .output();
    if let Ok(o) = listed
        && o.status.success()
    {
        for name in o.stdout.split(|b| *b == 0).filter(|n| !n.is_empty()) {
            let path = dir.join(String::from_utf8_lossy(name).as_ref());
            if path.is_file() && is_text(&path) {
                out.push(path);
            }
        }
        return;
    }
    walk(dir, out);
}

fn is_text(path: &Path) -> bool {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    [
        "rs", "md", "py", "pyi", "toml", "proto", "js", "java", "c", "html", "txt", "json",
    ]
    .iter()
    .any(|ext| name.ends_with(&format!(".{ext}")))
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if !name.starts_with('.')
                && !["target", "node_modules", "__pycache__"].contains(&name.as_str())
            {
                walk(&path, out);
            }
        } else if is_text(&path) {
            out.push(path);
        }
    }
}

#[test]
fn every_id_the_project_cites_is_defined_once_on_its_games_page() {
    let defined = defined_ids();
    for (id, pages) in &defined {
        assert_eq!(pages.len(), 1, "{id} is defined on {pages:?}");
        let letter = id.chars().next().unwrap();
        assert_eq!(
            pages[0],
            page_of(letter),
            "{id} is defined on the wrong page"
        );
    }
    let mut files = Vec::new();
    project_files(&root(), &mut files);
    assert!(files.len() > 50, "the walk found {} files", files.len());
    let mut cited = BTreeSet::new();
    for file in &files {
        let Ok(text) = fs::read_to_string(file) else {
            continue;
        };
        for id in cited_ids(&text) {
            assert!(
                defined.contains_key(&id),
                "{} cites {id}, which no page of docs/rules defines",
                file.strip_prefix(root()).unwrap_or(file).display()
            );
            cited.insert(id);
        }
    }
    // What the command line prints (option docs, from the engine).
    let s = Scratch::new("rule-ids");
    for args in [&["games"][..], &["games", "--json"]] {
        for id in cited_ids(&whistle_ok(&s, args).stdout) {
            assert!(
                defined.contains_key(&id),
                "`whistle {}` cites {id}, undefined",
                args.join(" ")
            );
        }
    }
    // The walk sees the ids the code cites (the test is not vacuous).
    for id in ["I4", "O16", "O17", "Y12", "H7", "L5"] {
        assert!(cited.contains(id), "{id} was not found in the source");
    }
}

#[test]
fn the_scanner_finds_ids_and_nothing_else() {
    assert_eq!(
        cited_ids("(I4) O1-O17, `Y12`; H2O, L10x, XI4, I123"),
        ["I4", "O1", "O17", "Y12"]
    );
}

#[test]
fn games_names_each_page_and_prints_it() {
    let s = Scratch::new("rule-pages");
    let all = whistle_ok(&s, &["games"]).stdout;
    for v in Variant::ALL {
        assert!(
            all.contains(&format!("rules: docs/rules/{v}.md")),
            "{v}: {all}"
        );
        let one = whistle_ok(&s, &["games", v.name()]).stdout;
        assert!(one.starts_with(&format!("{v} ")), "{one}");
        assert_eq!(
            one.lines().filter(|l| !l.starts_with(' ')).count(),
            1,
            "{one}"
        );
        let page = whistle_ok(&s, &["games", v.name(), "--rules"]).stdout;
        let on_disk = fs::read_to_string(root().join(format!("docs/rules/{v}.md"))).unwrap();
        assert_eq!(page, on_disk);
    }
    let json = whistle_ok(&s, &["games", "--json"]).stdout;
    assert!(
        json.contains("\"rules\": \"docs/rules/israeli.md\""),
        "{json}"
    );
    let bad = whistle(
        &s,
        &["games", "bridge", "--rules"],
        std::time::Duration::from_secs(30),
    );
    assert_eq!(bad.status.code(), Some(2), "{}", bad.stderr);
    assert!(bad.stderr.contains("bridge"), "{}", bad.stderr);
}

/// The rules index names the test that checks the ids: the file it names
/// exists (it once named `crates/rules/tests/rule_ids.rs`, which never did).
#[test]
fn the_index_names_files_that_exist() {
    let index = fs::read_to_string(root().join("docs/rules/README.md")).unwrap();
    let named: Vec<&str> = index
        .split('`')
        .filter(|w| w.starts_with("crates/") && w.ends_with(".rs"))
        .collect();
    assert!(
        named.contains(&"crates/cli/tests/rules_pages.rs"),
        "{named:?}"
    );
    for path in named {
        assert!(
            root().join(path).is_file(),
            "docs/rules/README.md names {path}"
        );
    }
}
