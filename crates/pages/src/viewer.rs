//! The hand viewer's data: a match log played again through the match
//! driver, and at every step of every hand what each seat saw (its
//! observation and legal actions, exactly what `whistle replay show --seat
//! --step` prints), the action taken, fallbacks and faults, and the
//! verifier's verdict.

use serde::Serialize;
use whistle_protocol::convert::field;
use whistle_replay::{MatchLog, verify::Report};
use whistle_rules::{
    Action, Card, Fallback, Game, MatchDriver, Observation, Seat, SeatView, Status, Variant,
    dealing::Seed,
};

/// The hands of a match as the page's JSON: an array with one object a
/// hand (`deal`, `dealer`, `steps`, `end`, `faults`, `summary`, `points`,
/// `totals`), each step an object (`seat`, `action`, `fallback`, `faults`,
/// `views`, and `refused` where the rules refuse it). Written as the match
/// is played again, straight from each seat's observation into one text:
/// a match's views are never held as values.
///
/// A step's `views` is an array with one view a seat (`observation`,
/// `history_len`, `tricks_len`, `legal`). On the page, a step's view is
/// small: within a hand the history and the completed tricks only grow, so
/// a step's view gives their lengths (`history_len`, `tricks_len`) and the
/// page takes that many of the hand's end view; and of the other fields of
/// the observation it carries only those that differ from the same seat's
/// view at the step before (all of them at a hand's first step), and of
/// `players` only the fields of each seat's entry that differ (an entry
/// without any is `null`). The page merges them back. A hand's end view
/// (`end`) is whole.
#[derive(Debug, Clone, Default)]
pub struct Hands {
    json: Vec<u8>,
    len: usize,
}

impl Hands {
    /// The JSON text (UTF-8).
    pub fn json(&self) -> &[u8] {
        &self.json
    }

    /// How many hands.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// What playing logs again needs from match to match, kept by a caller
/// that collects many (the pages of a tournament): the seats' observations
/// are refilled, not built, and the JSON is written into the same buffer.
#[derive(Debug, Default)]
pub struct Scratch {
    /// Each seat's observation at the step before (valid when `started`).
    before: Vec<Observation>,
    /// Each seat's observation now.
    now: Vec<Observation>,
    /// Whether `before` holds the step before's observations (not at a
    /// hand's first step).
    started: bool,
    /// The JSON being written.
    json: Vec<u8>,
    /// How many of the hand's logged events each seat may see, counted
    /// over the first `logged` entries of the game's log.
    seen: Vec<usize>,
    /// How many entries of the game's log `seen` has counted.
    logged: usize,
}

impl Scratch {
    /// Takes back the buffer of `m`'s hands, once its page is written.
    pub fn recycle(&mut self, m: Match) {
        let mut json = m.hands.json;
        json.clear();
        if json.capacity() > self.json.capacity() {
            self.json = json;
        }
    }
}

/// Appends `text` (JSON punctuation and keys, nothing to escape).
fn raw(buf: &mut Vec<u8>, text: &str) {
    buf.extend_from_slice(text.as_bytes());
}

/// Appends `value` as JSON.
fn val<T: Serialize + ?Sized>(buf: &mut Vec<u8>, value: &T) -> Result<(), String> {
    serde_json::to_writer(buf, value).map_err(|e| e.to_string())
}

/// The byte of `mask` for seat `i` (every field past the eighth seat).
fn seat_fields(mask: u64, i: usize) -> u8 {
    if i < 8 {
        (mask >> (8 * i)) as u8
    } else {
        u8::MAX
    }
}

/// What changed in one seat's entry, as [`players`] reads it.
fn seat_changes(a: &SeatView, b: &SeatView) -> u8 {
    [
        a.seat != b.seat,
        a.held != b.held,
        a.known != b.known,
        a.bid != b.bid,
        a.tricks != b.tricks,
        a.total != b.total,
        a.team != b.team,
        a.active != b.active,
    ]
    .iter()
    .enumerate()
    .fold(0, |m, (k, &c)| m | u8::from(c) << k)
}

/// `list` as a JSON array of the cards' texts, as their `Serialize` writes
/// them (a card's text is two ASCII letters or digits: nothing to escape).
fn cards(buf: &mut Vec<u8>, list: impl Iterator<Item = Card>) {
    buf.push(b'[');
    for (k, c) in list.enumerate() {
        raw(buf, if k > 0 { ",\"" } else { "\"" });
        raw(buf, c.text());
        buf.push(b'"');
    }
    buf.push(b']');
}

/// Legal actions as a JSON array of their texts, as their `Serialize`
/// writes them (a card played as its text).
fn actions(buf: &mut Vec<u8>, list: &[Action]) -> Result<(), String> {
    buf.push(b'[');
    for (k, a) in list.iter().enumerate() {
        if k > 0 {
            buf.push(b',');
        }
        match a {
            Action::Play(c) => {
                buf.push(b'"');
                raw(buf, c.text());
                buf.push(b'"');
            }
            a => val(buf, a)?,
        }
    }
    buf.push(b']');
    Ok(())
}

/// The fields of `p` in the mask `mask` (bit `k` for the `k`th field of
/// [`SeatView`]), as an object (all of them: as its `Serialize` writes it).
fn seat_part(buf: &mut Vec<u8>, p: &SeatView, mask: u8) -> Result<(), String> {
    let mut first = true;
    buf.push(b'{');
    macro_rules! put {
        ($($k:literal $f:ident),*) => {
            $(if mask & (1 << $k) != 0 {
                raw(buf, if first { "" } else { "," });
                first = false;
                raw(buf, concat!("\"", stringify!($f), "\":"));
                val(buf, &p.$f)?;
            })*
        };
    }
    put!(0 seat, 1 held);
    if mask & (1 << 2) != 0 {
        raw(buf, if first { "\"known\":" } else { ",\"known\":" });
        first = false;
        cards(buf, p.known.iter());
    }
    put!(3 bid, 4 tricks, 5 total, 6 team, 7 active);
    let _ = first;
    buf.push(b'}');
    Ok(())
}

/// The fields of each seat's entry of `list` in its byte of the mask `mask`
/// (byte `i` for seat `i`, bit `k` for the `k`th field of [`SeatView`]);
/// an entry with none is `null`.
fn players(buf: &mut Vec<u8>, list: &[SeatView], mask: u64) -> Result<(), String> {
    buf.push(b'[');
    for (i, p) in list.iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        match seat_fields(mask, i) {
            0 => raw(buf, "null"),
            f => seat_part(buf, p, f)?,
        }
    }
    buf.push(b']');
    Ok(())
}

/// The fields of `o` in the mask `mask` (bit `f` for field number `f`, as
/// [`whistle_protocol::compact::changed_fields`] gives it), as an object;
/// `players` with the seats' fields in `players_mask`.
fn partial(buf: &mut Vec<u8>, o: &Observation, mask: u32, players_mask: u64) -> Result<(), String> {
    let mut first = true;
    buf.push(b'{');
    macro_rules! put {
        ($($bit:ident $f:ident),*) => {
            $(if mask & (1 << field::$bit) != 0 {
                raw(buf, if first { "" } else { "," });
                first = false;
                raw(buf, concat!("\"", stringify!($f), "\":"));
                val(buf, &o.$f)?;
            })*
        };
    }
    put!(GAME game, SEAT seat, SEATS seats, DEAL deal, DEALER dealer, PHASE phase,
        TO_ACT to_act, SIMULTANEOUS simultaneous);
    if mask & (1 << field::HAND) != 0 {
        raw(buf, if first { "\"hand\":" } else { ",\"hand\":" });
        first = false;
        cards(buf, o.hand.iter());
    }
    put!(TRUMP trump, CONTRACT contract, TABLE table, PILES piles, TRICK trick, NOTES notes);
    if mask & (1 << field::PLAYERS) != 0 {
        raw(
            buf,
            if first {
                "\"players\":"
            } else {
                ",\"players\":"
            },
        );
        players(buf, &o.players, players_mask)?;
    }
    buf.push(b'}');
    Ok(())
}

/// A fault, as the viewer marks it.
#[derive(Debug, Clone, Serialize)]
pub struct Fault {
    /// The seat at fault.
    pub seat: usize,
    /// Its kind (`late`, `illegal`, ...).
    pub kind: String,
    /// What was wrong (already cut to a bounded length by the referee).
    pub detail: String,
    /// Whether it made the seat forfeit.
    pub forfeited: bool,
}

/// Everything the viewer page shows.
#[derive(Debug, Clone)]
pub struct Match {
    /// The game's name.
    pub game: String,
    /// The game's title.
    pub title: String,
    /// The tournament (or record) it belongs to.
    pub tournament: String,
    /// Its index there.
    pub match_index: u64,
    /// The bot in each seat.
    pub seats: Vec<String>,
    /// Whether the verifier found the log correct.
    pub verified: bool,
    /// What the verifier found wrong, one line each.
    pub problems: Vec<String>,
    /// The hands.
    pub hands: Hands,
    /// A page to link back to (a league site's standings), if any.
    pub back: Option<String>,
    /// Whether the match is being played: the page reloads itself.
    pub live: bool,
}

impl Match {
    /// The page's JSON, written to `w` in pieces: the fields before the
    /// hands, the hands' text as it is, the fields after. An object with
    /// the fields above in order (`back` only when set, `live` only when
    /// true).
    ///
    /// # Errors
    /// Those of `w`.
    pub fn write_json(&self, w: &mut (impl std::io::Write + ?Sized)) -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(256);
        self.head_json(&mut buf).map_err(std::io::Error::other)?;
        w.write_all(&buf)?;
        w.write_all(&self.hands.json)?;
        buf.clear();
        if let Some(back) = &self.back {
            raw(&mut buf, ",\"back\":");
            val(&mut buf, back).map_err(std::io::Error::other)?;
        }
        if self.live {
            raw(&mut buf, ",\"live\":true");
        }
        buf.push(b'}');
        w.write_all(&buf)
    }

    /// The fields before the hands, and the hands' key.
    fn head_json(&self, buf: &mut Vec<u8>) -> Result<(), String> {
        raw(buf, "{\"game\":");
        val(buf, &self.game)?;
        raw(buf, ",\"title\":");
        val(buf, &self.title)?;
        raw(buf, ",\"tournament\":");
        val(buf, &self.tournament)?;
        raw(buf, ",\"match_index\":");
        val(buf, &self.match_index)?;
        raw(buf, ",\"seats\":");
        val(buf, &self.seats)?;
        raw(buf, ",\"verified\":");
        val(buf, &self.verified)?;
        raw(buf, ",\"problems\":");
        val(buf, &self.problems)?;
        raw(buf, ",\"hands\":");
        Ok(())
    }
}

impl Serialize for Match {
    /// The page's JSON ([`Match::write_json`]) as a value.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut text = Vec::new();
        self.write_json(&mut text)
            .map_err(serde::ser::Error::custom)?;
        let text = String::from_utf8(text).map_err(serde::ser::Error::custom)?;
        serde_json::value::RawValue::from_string(text)
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }
}

fn faults(game: &str, list: &[whistle_replay::FaultLog], at: impl Fn(usize) -> bool) -> Vec<Fault> {
    list.iter()
        .filter(|f| at(f.at))
        .map(|f| Fault {
            seat: f.seat.index(),
            kind: f.kind.clone(),
            detail: with_rule_id(game, whistle_protocol::limits::echo(&f.detail)),
            forfeited: f.forfeited,
        })
        .collect()
}

/// A refusal's reason with the decision id of the rule it applies where
/// the engine's words name none (the viewer and `replay show` say it
/// alike): following suit is each game's play rule (I5, H4, L6, Y8; O5 for
/// Oneonta, whose every form follows as there).
pub fn with_rule_id(game: &str, reason: String) -> String {
    let id = match game {
        "israeli" => "I5",
        "honeymoon" => "H4",
        "illustrated" => "L6",
        "yogi" => "Y8",
        "oneonta" => "O5",
        _ => return reason,
    };
    if reason.contains("must follow suit") && !reason.contains(&format!("rule {id}")) {
        format!(
            "{reason}, rule {id} (docs/rules/{game}.md#{})",
            id.to_lowercase()
        )
    } else {
        reason
    }
}

/// Writes every seat's view into `s.json`: only what changed since each
/// seat's observation at the step before in the same hand (all of it at a
/// hand's first step), or whole (`whole`: a hand's end). A step's
/// observations become the step before's of the next.
fn views<G: Game>(game: &G, s: &mut Scratch, whole: bool) -> Result<(), String> {
    let n = game.seats();
    while s.now.len() < n {
        s.now.push(game.observe_without_history(Seat::new(0)));
    }
    // A step's view keeps only the length of each seat's history: the
    // events it may see, counted, not built. Within a hand the log only
    // grows (a deal starts it again): only its new entries are counted.
    let log = game.log();
    if log.len() < s.logged || s.seen.len() != n {
        s.logged = 0;
        s.seen.clear();
        s.seen.resize(n, 0);
    }
    for e in &log[s.logged..] {
        for seat in Seat::all(n) {
            s.seen[seat.index()] += usize::from(e.seen_by(seat).is_some());
        }
    }
    s.logged = log.len();
    let buf = &mut s.json;
    buf.push(b'[');
    for seat in Seat::all(n) {
        let i = seat.index();
        if i > 0 {
            buf.push(b',');
        }
        let history_len = s.seen[i];
        let now = &mut s.now[i];
        game.observe_into(seat, whole, now);
        let tricks_len = now.tricks.len();
        raw(buf, "{\"observation\":");
        if whole {
            val(buf, now)?;
        } else {
            let prev = s.before.get(i).filter(|_| s.started);
            let players_changed = prev.map_or(u64::MAX, |p| {
                // Seat by seat, field by field; a seat count that changed
                // sends them all.
                if p.players.len() != now.players.len() {
                    return u64::MAX;
                }
                p.players
                    .iter()
                    .zip(&now.players)
                    .enumerate()
                    .take(8)
                    .fold(0, |m, (i, (a, b))| {
                        m | u64::from(seat_changes(a, b)) << (8 * i)
                    })
            });
            // The completed tricks and history are not compared: the page
            // takes them by length.
            let changed = prev.map_or(u32::MAX, |p| {
                whistle_protocol::compact::changed_fields(p, now)
            });
            partial(buf, now, changed, players_changed)?;
        }
        raw(buf, ",\"history_len\":");
        val(buf, &history_len)?;
        raw(buf, ",\"tricks_len\":");
        val(buf, &tricks_len)?;
        raw(buf, ",\"legal\":");
        actions(buf, &game.legal_actions(seat))?;
        buf.push(b'}');
    }
    buf.push(b']');
    if !whole {
        s.now.truncate(n);
        std::mem::swap(&mut s.before, &mut s.now);
        s.started = true;
    }
    Ok(())
}

/// Reads the match log at `path`, verifies it (with `ctx`) and collects its
/// views: the log and what the viewer page shows.
///
/// # Errors
/// An unreadable log, or one the rules cannot play.
pub fn from_file(
    path: &std::path::Path,
    ctx: whistle_replay::verify::Context,
) -> Result<(MatchLog, Match), String> {
    from_file_with(path, ctx, &mut Scratch::default())
}

/// [`from_file`] with `scratch`'s buffers. The file is read once: the
/// verifier and the reader take the same bytes.
///
/// # Errors
/// As [`from_file`].
pub fn from_file_with(
    path: &std::path::Path,
    ctx: whistle_replay::verify::Context,
    scratch: &mut Scratch,
) -> Result<(MatchLog, Match), String> {
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let bytes = whistle_replay::read_log_bytes(path).map_err(|e| at(&e))?;
    let text = std::str::from_utf8(&bytes).map_err(|e| at(&e))?;
    let log = whistle_replay::LogReader::new(text.as_bytes(), path)
        .and_then(whistle_replay::LogReader::into_log)
        .map_err(|e| at(&e))?;
    let report = whistle_replay::verify::verify_text(&path.display().to_string(), text, ctx);
    let m = collect_with(&log, &report, scratch).map_err(|e| at(&e))?;
    Ok((log, m))
}

/// Plays `log` again and collects what every seat saw at every step.
///
/// # Errors
/// A log the rules cannot play (an unknown game, a deck or an action the
/// game refuses); `report` then says why in more detail.
pub fn collect(log: &MatchLog, report: &Report) -> Result<Match, String> {
    collect_with(log, report, &mut Scratch::default())
}

/// [`collect`] with `scratch`'s buffers.
///
/// # Errors
/// As [`collect`].
pub fn collect_with(log: &MatchLog, report: &Report, s: &mut Scratch) -> Result<Match, String> {
    let variant: Variant = log.header.game.parse().map_err(|e| format!("{e}"))?;
    let game = variant
        .new_game(&log.header.options)
        .map_err(|e| e.to_string())?;
    let seed = log.end.as_ref().map_or(Seed::default(), |e| e.match_seed);
    // The log says which actions were fallbacks; the driver's own rule is
    // never asked.
    let mut driver = MatchDriver::new(game, seed, Fallback::First);
    if let Some(ctx) = log.hands.first().and_then(|h| h.context.as_ref()) {
        driver.start_at(ctx).map_err(|e| format!("context: {e}"))?;
    }
    let name = &log.header.game;
    s.json.clear();
    s.json.push(b'[');
    let mut count = 0;
    for hand in &log.hands {
        if driver.game().status() != Status::Deal {
            // A hand after an incomplete one: the report says so; the page
            // shows what plays.
            break;
        }
        driver.deal_with(&hand.deck).map_err(|e| e.to_string())?;
        let buf = &mut s.json;
        if count > 0 {
            buf.push(b',');
        }
        count += 1;
        raw(buf, "{\"deal\":");
        val(buf, &hand.deal)?;
        raw(buf, ",\"dealer\":");
        val(buf, &hand.dealer.index())?;
        raw(buf, ",\"steps\":[");
        // A new deal: no step before, and a new log.
        s.started = false;
        s.logged = 0;
        s.seen.clear();
        let mut stopped = false;
        for (i, act) in hand.actions.iter().enumerate() {
            let buf = &mut s.json;
            if i > 0 {
                buf.push(b',');
            }
            raw(buf, "{\"seat\":");
            val(buf, &act.seat.index())?;
            raw(buf, ",\"action\":");
            val(buf, &act.action)?;
            raw(buf, ",\"fallback\":");
            val(buf, &act.fallback)?;
            raw(buf, ",\"faults\":");
            val(buf, &faults(name, &hand.faults, |at| at == i))?;
            raw(buf, ",\"views\":");
            views(driver.game(), s, false)?;
            let buf = &mut s.json;
            if let Err(e) = driver.apply(act.seat, act.action, act.fallback) {
                // Why the rules refuse this action: a disputed log is
                // drawn up to here, the refused step marked, and play
                // stops.
                raw(buf, ",\"refused\":");
                val(buf, &format_args!("{e}"))?;
                buf.push(b'}');
                stopped = true;
                break;
            }
            buf.push(b'}');
            driver.take_events();
        }
        raw(&mut s.json, "],\"end\":");
        views(driver.game(), s, true)?;
        let n = hand.actions.len();
        let buf = &mut s.json;
        raw(buf, ",\"faults\":");
        val(buf, &faults(name, &hand.faults, |at| at >= n))?;
        raw(buf, ",\"summary\":");
        if stopped {
            val(buf, "play stops here: the rules refuse this step")?;
        } else {
            val(buf, &format_args!("{}", hand.result.summary))?;
        }
        raw(buf, ",\"points\":");
        val(buf, hand.result.points.as_slice())?;
        raw(buf, ",\"totals\":");
        val(buf, hand.result.totals.as_slice())?;
        buf.push(b'}');
        if stopped {
            break;
        }
    }
    s.json.push(b']');
    // UTF-8 as serde_json writes it: not checked again.
    let json = std::mem::take(&mut s.json);
    Ok(Match {
        game: variant.name().to_string(),
        title: variant.title().to_string(),
        tournament: log.header.tournament.clone(),
        match_index: log.header.match_index,
        seats: log.header.seats.clone(),
        verified: report.ok(),
        problems: report
            .problems
            .iter()
            .map(|p| {
                let at = match (p.deal, p.step) {
                    (Some(d), Some(s)) => format!("hand {d} step {s}: "),
                    (Some(d), None) => format!("hand {d}: "),
                    _ => String::new(),
                };
                format!(
                    "line {}: {at}{}: expected {}, found {}",
                    p.line, p.what, p.expected, p.found
                )
            })
            .collect(),
        hands: Hands { json, len: count },
        back: None,
        live: false,
    })
}

#[cfg(test)]
mod tests {
    use whistle_rules::Seat;

    use super::*;

    /// The viewer's fault text names the rule a refusal applies, as `replay
    /// show` does (I5: follow suit in Israeli Whist), once.
    #[test]
    fn a_refusal_to_follow_suit_names_its_rule() {
        let fault = whistle_replay::FaultLog {
            seat: Seat::new(2),
            kind: "illegal".into(),
            detail: "`KH`: must follow suit (S)".into(),
            fallback: None,
            faults: 1,
            forfeited: false,
            at: 4,
            answer: None,
        };
        let shown = faults("israeli", std::slice::from_ref(&fault), |at| at == 4);
        assert_eq!(
            shown[0].detail,
            "`KH`: must follow suit (S), rule I5 (docs/rules/israeli.md#i5)"
        );
        assert_eq!(
            with_rule_id("israeli", shown[0].detail.clone()),
            shown[0].detail
        );
        // A refusal whose words cite their rule already is left as it is.
        let bid = "`bid 4`: the bids must not total 13 (I4)".to_string();
        assert_eq!(with_rule_id("israeli", bid.clone()), bid);
        assert!(faults("israeli", &[fault], |at| at == 5).is_empty());
    }
}

#[cfg(test)]
mod page_data {
    use serde_json::{Map, Value};
    use whistle_rules::{Fallback, Game, MatchDriver, Seat, Status, dealing::Seed};

    /// A step's view merged back onto the same seat's view at the step
    /// before, as `assets/viewer.js` does.
    fn merge(before: &Map<String, Value>, part: &Map<String, Value>) -> Map<String, Value> {
        let mut o = before.clone();
        for (k, v) in part {
            o.insert(k.clone(), v.clone());
        }
        if let (Some(Value::Array(now)), Some(Value::Array(was))) =
            (part.get("players"), before.get("players"))
        {
            let players = now
                .iter()
                .zip(was)
                .map(|(p, w)| match p {
                    Value::Null => w.clone(),
                    Value::Object(p) => {
                        let mut w = w.as_object().cloned().unwrap_or_default();
                        w.extend(p.clone());
                        Value::Object(w)
                    }
                    other => panic!("a player entry {other}"),
                })
                .collect();
            o.insert("players".into(), Value::Array(players));
        }
        o
    }

    /// The page's data, merged back, is at every step exactly each seat's
    /// observation (what `replay show --seat --step` prints, without its
    /// history and completed tricks, which the page takes from the hand's
    /// end by the lengths it gives) and legal actions: nothing a seat may not see, and
    /// nothing it saw left out. Every game's sample log.
    #[test]
    fn the_page_data_merges_back_into_each_seats_observation() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../replays/samples");
        for game in ["israeli", "honeymoon", "illustrated", "yogi", "oneonta"] {
            let path = root.join(game).join("matches/m00000.jsonl");
            let (log, m) = super::from_file(&path, Default::default()).unwrap();
            assert!(m.verified, "{game}: {:?}", m.problems);
            let data = serde_json::to_value(&m).unwrap();
            let variant: whistle_rules::Variant = log.header.game.parse().unwrap();
            let seed = log.end.as_ref().map_or(Seed::default(), |e| e.match_seed);
            let mut driver = MatchDriver::new(
                variant.new_game(&log.header.options).unwrap(),
                seed,
                Fallback::First,
            );
            if let Some(ctx) = log.hands.first().and_then(|h| h.context.as_ref()) {
                driver.start_at(ctx).unwrap();
            }
            let mut compared = 0;
            for (h, hand) in log.hands.iter().enumerate() {
                if driver.game().status() != Status::Deal {
                    break;
                }
                driver.deal_with(&hand.deck).unwrap();
                let page = &data["hands"][h];
                let seats = driver.game().seats();
                let mut before = vec![Map::new(); seats];
                for (i, act) in hand.actions.iter().enumerate() {
                    for s in Seat::all(seats) {
                        let view = &page["steps"][i]["views"][s.index()];
                        let o = merge(&before[s.index()], view["observation"].as_object().unwrap());
                        let mut want = driver.game().observe_without_history(s);
                        assert_eq!(view["tricks_len"].as_u64(), Some(want.tricks.len() as u64));
                        let seen = driver.game().observe(s).history.len();
                        assert_eq!(view["history_len"].as_u64(), Some(seen as u64));
                        want.tricks.clear();
                        let mut want = serde_json::to_value(&want).unwrap();
                        let want = want.as_object_mut().unwrap();
                        want.remove("tricks");
                        want.remove("history");
                        assert_eq!(&o, want, "{game} hand {h} step {i} seat {}", s.index());
                        let legal: Vec<String> = driver
                            .game()
                            .legal_actions(s)
                            .iter()
                            .map(ToString::to_string)
                            .collect();
                        assert_eq!(view["legal"], serde_json::json!(legal));
                        before[s.index()] = o;
                        compared += 1;
                    }
                    driver.apply(act.seat, act.action, act.fallback).unwrap();
                    driver.take_events();
                }
                for s in Seat::all(seats) {
                    let want = serde_json::to_value(driver.game().observe(s)).unwrap();
                    assert_eq!(page["end"][s.index()]["observation"], want);
                }
            }
            assert!(compared > 100, "{game}: {compared} views");
        }
    }
}
