//! The pages in a real browser: headless Chromium (Debian's `chromium`,
//! which `.ci/run` installs), driven with `headless_chrome`. Screenshots are
//! kept in `target/tmp/screenshots/`.
//!
//! Without Chromium the tests fail under CI (`CI=true`); elsewhere they say
//! so and pass, so that `cargo test` works on a machine with only the Rust
//! toolchain.

mod common;

use std::{path::Path, time::Duration};

use common::{Scratch, whistle};
use headless_chrome::{
    Browser, LaunchOptions, Tab, protocol::cdp::Page::CaptureScreenshotFormatOption,
};
use serde_json::Value;

/// The browser, or `None` (outside CI) when there is none.
fn browser() -> Option<Browser> {
    let path = std::env::var_os("WHISTLE_CHROMIUM")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            [
                "/usr/bin/chromium",
                "/usr/bin/chromium-browser",
                "/usr/bin/google-chrome",
            ]
            .iter()
            .map(std::path::PathBuf::from)
            .find(|p| p.exists())
        });
    let Some(path) = path else {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(
            !ci,
            "no Chromium: .ci/run installs Debian's chromium with apt"
        );
        eprintln!("SKIPPED: no Chromium here (apt install chromium, or set WHISTLE_CHROMIUM)");
        return None;
    };
    let options = LaunchOptions::default_builder()
        .path(Some(path))
        .headless(true)
        .sandbox(false)
        .window_size(Some((1280, 900)))
        .args(vec![
            std::ffi::OsStr::new("--disable-gpu"),
            std::ffi::OsStr::new("--disable-background-networking"),
            std::ffi::OsStr::new("--disable-component-update"),
            std::ffi::OsStr::new("--disable-sync"),
            std::ffi::OsStr::new("--no-first-run"),
            std::ffi::OsStr::new("--disable-quic"),
        ])
        .idle_browser_timeout(Duration::from_secs(120))
        .build()
        .expect("launch options");
    Some(Browser::new(options).expect("Chromium starts"))
}

/// The text of every element matching `selector`.
fn texts(tab: &Tab, selector: &str) -> Vec<String> {
    let js = format!(
        "JSON.stringify(Array.from(document.querySelectorAll({selector:?})).map(e => e.textContent))"
    );
    let v = tab.evaluate(&js, false).expect("the script runs");
    let s = v
        .value
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    serde_json::from_str(&s).unwrap_or_default()
}

/// Saves a screenshot as `target/tmp/screenshots/<name of path>`, kept after
/// the test.
fn screenshot(tab: &Tab, path: &Path) {
    let png = tab
        .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
        .expect("a screenshot");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(path.file_name().unwrap()), png).unwrap();
}

/// A card's text as the viewer draws it (`TS` → `10♠`).
/// Every card of a JSON list of card codes, as the page draws it.
fn drawn_all(cards: &serde_json::Value) -> Vec<String> {
    cards
        .as_array()
        .unwrap()
        .iter()
        .map(|c| drawn(c.as_str().unwrap()))
        .collect()
}

fn drawn(code: &str) -> String {
    match code {
        "BJ" => "Big \u{2605}".into(),
        "LJ" => "Little \u{2606}".into(),
        _ => {
            let (rank, suit) = code.split_at(code.len() - 1);
            let rank = if rank == "T" { "10" } else { rank };
            let suit = match suit {
                "S" => "\u{2660}",
                "H" => "\u{2665}",
                "D" => "\u{2666}",
                _ => "\u{2663}",
            };
            format!("{rank}{suit}")
        }
    }
}

/// What `whistle replay show --seat --step` says a seat saw.
fn shown(s: &Scratch, log: &Path, hand: u32, step: usize, seat: usize) -> Value {
    let r = whistle(
        s,
        &[
            "replay",
            "show",
            log.to_str().unwrap(),
            "--hand",
            &hand.to_string(),
            "--step",
            &step.to_string(),
            "--seat",
            &seat.to_string(),
            "--json",
        ],
        Duration::from_secs(60),
    );
    assert!(r.status.success(), "{}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap()
}

#[test]
fn the_hand_viewer_shows_a_seat_what_it_saw_and_nothing_else() {
    let s = Scratch::new("pages-viewer");
    let log = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../replays/samples/israeli/matches/m00000.jsonl")
        .canonicalize()
        .unwrap();
    let r = whistle(
        &s,
        &["replay", "html", log.to_str().unwrap(), "--out", "viewer"],
        Duration::from_secs(60),
    );
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("verified"), "{}", r.stdout);
    let page = s.path("viewer/index.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "the page loads nothing from a network"
    );
    // The game's rules page travels with the viewer (docs/rules).
    assert!(
        html.contains("the rules of israeli"),
        "no rules in the viewer"
    );
    assert!(
        html.contains("I4 · Contract bids"),
        "no rules text in the viewer"
    );
    let Some(browser) = browser() else { return };
    let tab = browser.new_tab().unwrap();
    for (step, seat) in [(20usize, 0usize), (21, 2), (0, 1)] {
        // A query of its own makes each visit a fresh load (a new hash
        // alone would not reload the page).
        let url = format!(
            "file://{}?visit={step}-{seat}#hand=0&step={step}&seat={seat}",
            page.display()
        );
        tab.navigate_to(&url).unwrap();
        tab.wait_until_navigated().unwrap();
        tab.wait_for_element("#seats .seat").unwrap();
        let want = shown(&s, &log, 0, step, seat);
        let hand = drawn_all(&want["observation"]["hand"]);
        let mine = texts(
            &tab,
            &format!(".seat[data-seat=\"{seat}\"] .card:not(.back)"),
        );
        assert_eq!(mine, hand, "step {step}: seat {seat}'s own cards");
        for other in 0..4 {
            if other == seat {
                continue;
            }
            let known = drawn_all(&want["observation"]["players"][other]["known"]);
            let faces = texts(
                &tab,
                &format!(".seat[data-seat=\"{other}\"] .card:not(.back)"),
            );
            assert_eq!(
                faces, known,
                "step {step}: seat {other} as seat {seat} knows it"
            );
            let held = want["observation"]["players"][other]["held"]
                .as_u64()
                .unwrap() as usize;
            let backs = texts(&tab, &format!(".seat[data-seat=\"{other}\"] .card.back")).len();
            assert_eq!(
                faces.len() + backs,
                held,
                "step {step}: seat {other}'s cards, face down"
            );
        }
        // The trick as the seat saw it.
        let trick: Vec<String> = want["observation"]["trick"]["cards"]
            .as_array()
            .unwrap()
            .iter()
            // The request's JSON form: `{"card": .., "seat": ..}` a card.
            .map(|pc| drawn(pc["card"].as_str().unwrap()))
            .collect();
        assert_eq!(texts(&tab, "#trick .card"), trick, "step {step}: the trick");
        // The legal actions the seat had.
        let legal: Vec<String> = want["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect();
        let listed = texts(&tab, "#legal .legal-list").join("");
        assert_eq!(listed, legal.join("  "), "step {step}: legal actions");
        screenshot(&tab, &s.path(&format!("viewer-step{step}-seat{seat}.png")));
    }
    // Stepping on with the button moves one decision.
    let before = texts(&tab, "#step-label");
    tab.find_element("#next").unwrap().click().unwrap();
    assert_ne!(texts(&tab, "#step-label"), before);
    assert_eq!(
        texts(&tab, "#verdict"),
        ["verified: the log agrees with the rules"]
    );
    // A phone-sized window still shows every seat.
    tab.set_bounds(headless_chrome::types::Bounds::Normal {
        left: None,
        top: None,
        width: Some(390.0),
        height: Some(844.0),
    })
    .unwrap();
    assert_eq!(texts(&tab, "#seats .seat h3").len(), 4);
    screenshot(&tab, &s.path("viewer-phone.png"));
}

/// A disputed log (an action the rules refuse) is drawn up to it, the step
/// marked; a hand's end says so (not "trick 14", not "undecided"); the
/// trick's cards name their players; the seats sit round the table; what a
/// seat has seen shows its newest event.
#[test]
fn the_viewer_draws_a_disputed_log_and_the_table_as_it_is() {
    let s = Scratch::new("pages-disputed");
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../replays/samples/israeli/matches/m00000.jsonl");
    let text = std::fs::read_to_string(&src).unwrap();
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Hand 1's 30th action becomes a card its seat does not hold.
    let actions = lines[2]["actions"].as_array_mut().unwrap();
    let k = 30;
    let seat = actions[k]["seat"].clone();
    let stolen = actions
        .iter()
        .find(|a| a["seat"] != seat && a["action"].as_str().unwrap().len() == 2)
        .unwrap()["action"]
        .clone();
    actions[k]["action"] = stolen;
    let edited: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    let log = s.write("disputed.jsonl", &edited);
    let r = whistle(
        &s,
        &["replay", "html", log.to_str().unwrap(), "--out", "viewer"],
        Duration::from_secs(60),
    );
    assert!(r.status.success(), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("NOT verified"), "{}", r.stdout);
    let page = s.path("viewer/index.html");
    let Some(browser) = browser() else { return };
    let tab = browser.new_tab().unwrap();
    tab.navigate_to(&format!("file://{}#hand=1&step={k}&seat=0", page.display()))
        .unwrap();
    tab.wait_until_navigated().unwrap();
    tab.wait_for_element("#seats .seat").unwrap();
    assert!(texts(&tab, "#verdict")[0].starts_with("NOT verified"));
    let said = texts(&tab, "#action .refused");
    assert!(
        said.len() == 1 && said[0].contains("REFUSED") && said[0].contains("Play stops here"),
        "{said:?}"
    );
    assert_eq!(
        texts(&tab, "#hand option").len(),
        2,
        "hands 0 and 1 (up to the refused step)"
    );
    screenshot(&tab, &s.path("viewer-refused.png"));
    // Hand 0's end: over, with its trump; seats round the table.
    tab.navigate_to(&format!(
        "file://{}?end#hand=0&step=999&seat=0",
        page.display()
    ))
    .unwrap();
    tab.wait_until_navigated().unwrap();
    tab.wait_for_element("#seats .seat").unwrap();
    let middle = texts(&tab, "#middle").join(" ");
    assert!(middle.contains("hand over: 13 tricks played"), "{middle}");
    assert!(
        !middle.contains("trick 14") && !middle.contains("undecided"),
        "{middle}"
    );
    let area = |seat: usize| {
        tab.evaluate(
            &format!("document.querySelector('.seat[data-seat=\"{seat}\"]').style.gridArea"),
            false,
        )
        .unwrap()
        .value
        .unwrap()
        .as_str()
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_string()
    };
    assert_eq!(
        (area(0), area(1), area(2), area(3)),
        ("s".into(), "w".into(), "n".into(), "e".into())
    );
    // Mid-trick: each card names its player; the history shows its end.
    tab.navigate_to(&format!(
        "file://{}?mid#hand=0&step=22&seat=0",
        page.display()
    ))
    .unwrap();
    tab.wait_until_navigated().unwrap();
    tab.wait_for_element("#seats .seat").unwrap();
    let captions = texts(&tab, "#trick figcaption");
    assert_eq!(captions.len(), texts(&tab, "#trick .card").len());
    assert!(captions.iter().all(|c| !c.is_empty()), "{captions:?}");
    let scrolled = tab
        .evaluate(
            "(function(){const h=document.getElementById('history');\
             return h.scrollHeight <= h.clientHeight || h.scrollTop + h.clientHeight >= h.scrollHeight - 2;})()",
            false,
        )
        .unwrap()
        .value
        .unwrap();
    assert_eq!(scrolled, Value::Bool(true));
}

#[test]
fn the_tournament_report_shows_standings_the_rating_plot_and_links_every_hand() {
    let s = Scratch::new("pages-report");
    let t = common::israeli_tournament(
        "name = \"cup\"\nseed = 9\nhands = 2\nformat = \"duplicate\"\n",
        &[
            ("first", "first"),
            ("heuristic", "heuristic"),
            ("random", "random"),
            ("heuristic-2", "heuristic"),
        ],
    );
    s.write("cup.toml", &t);
    let r = whistle(
        &s,
        &[
            "tournament",
            "cup.toml",
            "--out",
            "cup",
            "--progress",
            "quiet",
        ],
        Duration::from_secs(120),
    );
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("report.html"), "{}", r.stdout);
    let report = s.path("cup/report.html");
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(s.path("cup/results.json")).unwrap())
            .unwrap();
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(
        !html.contains("http://") || !html.contains("src=\"http"),
        "nothing from a network"
    );
    let Some(browser) = browser() else { return };
    let tab = browser.new_tab().unwrap();
    tab.navigate_to(&format!("file://{}", report.display()))
        .unwrap();
    tab.wait_for_element("#standings tr.bot").unwrap();
    // The standings rows, in the results' order.
    let names: Vec<String> = results["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(texts(&tab, "#standings tr.bot td.name"), names);
    // The plot: one line a bot, and the legend names them.
    assert_eq!(texts(&tab, "#ratings .legend li"), names);
    let lines = tab
        .evaluate(
            "document.querySelectorAll('#ratings svg polyline').length",
            false,
        )
        .unwrap()
        .value
        .and_then(|v| v.as_u64())
        .unwrap_or(0);
    assert!(
        lines >= names.len() as u64,
        "{lines} lines for {} bots",
        names.len()
    );
    assert!(!texts(&tab, "#pairwise tbody tr").is_empty());
    screenshot(&tab, &s.path("report.png"));
    // Every match's every hand is linked, and a link opens the viewer.
    let matches = results["matches"].as_array().unwrap().len();
    let links = texts(&tab, "#matches td.hands a");
    assert_eq!(links.len(), matches * 2, "two hands a match");
    tab.find_element("#matches td.hands a")
        .unwrap()
        .click()
        .unwrap();
    tab.wait_for_element("#seats .seat").unwrap();
    assert_eq!(texts(&tab, "#seats .seat h3").len(), 4);
    assert!(texts(&tab, "#verdict")[0].starts_with("verified"));
    screenshot(&tab, &s.path("report-viewer.png"));
    // On a phone the report still shows every bot.
    let phone = browser.new_tab().unwrap();
    phone
        .set_bounds(headless_chrome::types::Bounds::Normal {
            left: None,
            top: None,
            width: Some(390.0),
            height: Some(844.0),
        })
        .unwrap();
    phone
        .navigate_to(&format!("file://{}", report.display()))
        .unwrap();
    phone.wait_for_element("#standings tr.bot").unwrap();
    assert_eq!(texts(&phone, "#standings tr.bot td.name"), names);
    screenshot(&phone, &s.path("report-phone.png"));
}

#[test]
fn the_league_site_shows_standings_histories_matches_and_live_tables() {
    let s = Scratch::new("pages-league");
    s.write(
        "site.toml",
        "name = \"site\"\ngame = \"israeli\"\nseed = 3\nhands = 2\nformat = \"round-robin\"\n\n\
         [time]\nper_action_ms = 20000\n",
    );
    let ok = |args: &[&str]| common::whistle_ok(&s, args);
    ok(&["league", "init", "site.toml", "--dir", "lg"]);
    let tokens = common::add_league_bots(&s, "lg", &["b1", "b2", "b3", "b4"]);
    let (mut serve, lines) = common::spawn_serve(
        &s,
        "lg",
        &["--http", "127.0.0.1:0", "--watch-delay-s", "1"],
        &["listening on ", "site on "],
    );
    let grpc = common::listening_address(&lines[0]);
    let site = lines[1]["site on ".len()..].to_string();
    let mut bots: Vec<_> = tokens
        .iter()
        .enumerate()
        .map(|(i, t)| {
            common::spawn_remote_bot(&grpc, t, if i % 2 == 0 { "heuristic" } else { "first" })
        })
        .collect();
    // Wait for a match to be recorded.
    let start = std::time::Instant::now();
    loop {
        let r = ok(&["league", "standings", "--json", "--dir", "lg"]);
        let rows: Value = serde_json::from_str(&r.stdout).unwrap();
        if rows
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["matches"].as_u64() > Some(0))
        {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no match recorded"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let Some(browser) = browser() else {
        common::stop_all(&mut serve, &mut bots);
        return;
    };
    let tab = browser.new_tab().unwrap();
    tab.navigate_to(&site).unwrap();
    tab.wait_for_element("#standings tr.bot").unwrap();
    let mut names = texts(&tab, "#standings tr.bot td.name");
    names.sort();
    assert_eq!(names, ["b1", "b2", "b3", "b4"]);
    assert!(!texts(&tab, "#recent a").is_empty());
    screenshot(&tab, &s.path("site.png"));
    // A recent match opens in the viewer.
    tab.find_element("#recent a").unwrap().click().unwrap();
    tab.wait_for_element("#seats .seat").unwrap();
    assert_eq!(texts(&tab, "#seats .seat h3").len(), 4);
    // A bot's rating history, plotted.
    tab.navigate_to(&format!("{site}bots/b1")).unwrap();
    tab.wait_for_element("#history-plot svg").unwrap();
    assert!(
        texts(&tab, "#history tbody tr").len() >= 2,
        "the start and a match"
    );
    // The live tables page, shown late.
    tab.navigate_to(&format!("{site}live")).unwrap();
    tab.wait_for_element("h1").unwrap();
    assert_eq!(texts(&tab, "h1"), ["Live tables"]);
    assert!(texts(&tab, "main p")[0].contains("1 s late"));
    screenshot(&tab, &s.path("site-live.png"));
    // Rounds and seeds: the first round's commitment, its seed once closed.
    tab.navigate_to(&format!("{site}rounds")).unwrap();
    tab.wait_for_element("#rounds").unwrap();
    let rows = texts(&tab, "#rounds tbody tr");
    assert!(!rows.is_empty(), "no round listed");
    let first = rows.last().unwrap();
    assert!(first.starts_with('1'), "{first}");
    let rounds = common::whistle_ok(&s, &["league", "rounds", "--json", "--dir", "lg"]);
    let rounds: Value = serde_json::from_str(&rounds.stdout).unwrap();
    assert!(
        first.contains(rounds[0]["commitment"].as_str().unwrap()),
        "{first}"
    );
    match rounds[0]["seed"].as_str() {
        Some(seed) => assert!(first.contains(seed), "{first}"),
        None => assert!(first.contains("secret"), "{first}"),
    }
    common::stop_all(&mut serve, &mut bots);
}

/// A report of `n` bots as a class's budget event leaves it: every bot
/// ranked by matchpoints, with par and a rating history, the last three
/// not ranked (one out of the event, two forfeiting every match), a few
/// with faults.
fn class_report(s: &Scratch, n: usize) -> std::path::PathBuf {
    use whistle_tournament::stats::{DuplicateStats, Interval, Note, Rating, RatingPoint};
    let names: Vec<String> = (0..n).map(|i| format!("student-{i:02}")).collect();
    let mut results = whistle_tournament::stats::compute("class", "israeli", &names, &[]);
    results.grade = "matchpoints".into();
    // A drawn seed, revealed: 64 hex digits without a space to break at.
    results.seed = Some(whistle_rules::dealing::WrittenSeed::Full(
        whistle_rules::dealing::Seed::from_hex(&"be5cd191".repeat(8)).unwrap(),
    ));
    let iv = |mean: f64, half: f64| Interval {
        n: 16,
        mean,
        low: mean - half,
        high: mean + half,
    };
    let mut par = Vec::new();
    let mut mps = Vec::new();
    for (i, b) in results.bots.iter_mut().enumerate() {
        b.matches = 8;
        b.hands = 16;
        b.points = iv(-10.0 - i as f64, 12.345);
        b.rating = Some(Rating {
            system: "weng-lin".into(),
            value: 40.0 - i as f64 * 0.5,
            uncertainty: 4.9,
        });
        let out = i + 3 >= n;
        b.unranked = match n - i {
            1 => Some("out: its process ended 4 times (last: exited with status 1); see replays/class-day/logs/broken-crash-at-start.stderr.log".into()),
            2 | 3 => Some("forfeited every match".into()),
            _ => None,
        };
        b.grade = (!out).then(|| iv(99.0 - i as f64 * 1.5, 14.25));
        if out {
            b.forfeits = 8;
            b.faults.insert("malformed".into(), 80);
        } else if i % 7 == 3 {
            b.faults.insert("late".into(), 3);
            b.faults.insert("illegal".into(), 1);
        }
        par.push((b.name.clone(), iv(30.0 - i as f64, 11.5)));
        mps.push((b.name.clone(), iv(99.0 - i as f64 * 1.5, 14.25)));
        let history = (0..8u64)
            .map(|m| RatingPoint {
                r#match: m * n as u64 / 4 + i as u64 % 7,
                value: 25.0 + (m as f64 / 7.0) * (15.0 - i as f64 * 0.5),
                uncertainty: 8.0 - m as f64 * 0.4,
            })
            .collect();
        results.rating_history.insert(b.name.clone(), history);
    }
    results.duplicate = Some(DuplicateStats {
        versus_par: par,
        pairs: Vec::new(),
        matchpoints: mps,
    });
    results.notes.push(Note {
        bot: names[n - 1].clone(),
        kind: "out".into(),
        detail: "out of the event: its process ended 4 times (last: exited with status 1); see replays/class-day/logs/broken-crash-at-start.stderr.log".into(),
    });
    let out = s.path(&format!("class-{n}"));
    std::fs::create_dir_all(out.join("matches")).unwrap();
    std::fs::write(
        out.join("results.json"),
        serde_json::to_string(&results).unwrap(),
    )
    .unwrap();
    whistle_pages::report::write(&out).unwrap()
}

/// How far the page, and the standings table in its box, are wider than
/// the window.
fn overflow(tab: &Tab) -> (f64, f64) {
    let f = |js: &str| {
        tab.evaluate(js, false)
            .unwrap()
            .value
            .and_then(|v| v.as_f64())
            .unwrap_or(1e9)
    };
    (
        f("document.documentElement.scrollWidth - window.innerWidth"),
        f(
            "(function () { var b = document.querySelector('#standings .scroll'); return b.scrollWidth - b.clientWidth; })()",
        ),
    )
}

/// A class of 30 and of 60 at 1280 px and on a phone: the standings fit at
/// 1280 px (no sideways scrolling, every column on screen), the page never
/// scrolls sideways on a phone, the grade comes first, the bots not ranked
/// are in a table of their own, every bot with faults or forfeits is named
/// under "How the bots ran", and the ratings chart draws eight bots in
/// colour and names every line (picked out by a click in the standings).
#[test]
fn the_report_stays_readable_with_thirty_and_sixty_bots() {
    let s = Scratch::new("pages-class");
    for n in [30usize, 60] {
        let report = class_report(&s, n);
        let Some(browser) = browser() else { return };
        for (width, height, label) in [(1280.0, 2000.0, "1280"), (390.0, 844.0, "phone")] {
            let tab = browser.new_tab().unwrap();
            tab.set_bounds(headless_chrome::types::Bounds::Normal {
                left: None,
                top: None,
                width: Some(width),
                height: Some(height),
            })
            .unwrap();
            tab.navigate_to(&format!("file://{}", report.display()))
                .unwrap();
            tab.wait_for_element("#standings tr.bot").unwrap();
            let ranked: Vec<String> = (0..n - 3).map(|i| format!("student-{i:02}")).collect();
            assert_eq!(texts(&tab, "#standings tr.bot td.name"), ranked);
            assert_eq!(
                texts(&tab, "#unranked td.name"),
                (n - 3..n)
                    .map(|i| format!("student-{i:02}"))
                    .collect::<Vec<_>>()
            );
            let heads = texts(&tab, "#standings th");
            assert!(heads[2].starts_with("matchpoints"), "{heads:?}");
            assert!(heads[3].starts_with("vs par"), "{heads:?}");
            // Faults or forfeits: every such bot named, once.
            let ran = texts(&tab, "#notes li");
            let troubled = (0..n).filter(|&i| i % 7 == 3 || i + 3 >= n).count();
            assert_eq!(ran.len(), troubled, "{ran:?}");
            assert_eq!(texts(&tab, "#ratings .legend li").len(), 8);
            let lines = tab
                .evaluate(
                    "document.querySelectorAll('#ratings polyline.rating').length",
                    false,
                )
                .unwrap()
                .value
                .and_then(|v| v.as_u64());
            assert_eq!(lines, Some(n as u64));
            let (page, table) = overflow(&tab);
            assert!(
                page <= 1.0,
                "{n} bots, {label}: the page is {page} px too wide"
            );
            if label == "1280" {
                assert!(
                    table <= 1.0,
                    "{n} bots at 1280 px: the standings scroll by {table} px"
                );
                // A click on a bot's row picks out its line.
                tab.find_element("#standings tr.bot[data-bot='student-20'] td.name")
                    .unwrap()
                    .click()
                    .unwrap();
                let picked = tab
                    .evaluate(
                        "document.querySelector('#ratings polyline.picked').dataset.bot",
                        false,
                    )
                    .unwrap()
                    .value;
                assert_eq!(picked, Some(Value::from("student-20")));
            }
            screenshot(&tab, &s.path(&format!("report-class-{n}-{label}.png")));
        }
    }
}
