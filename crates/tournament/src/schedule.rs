//! The schedule: which bots sit where in every match, and which deals they
//! play. A pure function of the tournament file, so shards and resumed runs
//! agree on it without talking to each other.

use whistle_rules::dealing::{Domain, Seed};

use crate::config::{Format, Seatings, Tournament};

/// One scheduled match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// Its index in the schedule (names its table and log).
    pub index: u64,
    /// The bot in each seat (indices into the tournament's bots).
    pub seats: Vec<usize>,
    /// The match seed: every deal and random fallback derives from it.
    pub match_seed: Seed,
    /// Duplicate events: the group sharing these deals, and this rotation.
    pub duplicate: Option<(u64, u32)>,
}

/// `k`-element combinations of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut c: Vec<usize> = (0..k).collect();
    if k > n {
        return out;
    }
    loop {
        out.push(c.clone());
        let Some(i) = (0..k).rev().find(|&i| c[i] != i + n - k) else {
            return out;
        };
        c[i] += 1;
        for j in i + 1..k {
            c[j] = c[j - 1] + 1;
        }
    }
}

/// Every order of `0..k`, in lexicographic order.
fn permutations(k: usize) -> Vec<Vec<usize>> {
    let mut p: Vec<usize> = (0..k).collect();
    let mut out = vec![p.clone()];
    // The next permutation in lexicographic order, until the last.
    while let Some(i) = (1..k).rev().find(|&i| p[i - 1] < p[i]) {
        let j = (i..k)
            .rev()
            .find(|&j| p[j] > p[i - 1])
            .expect("p[i] qualifies");
        p.swap(i - 1, j);
        p[i..].reverse();
        out.push(p.clone());
    }
    out
}

/// The groups of bots that meet: every group of `k` from `pool` (or, with
/// fewer bots than seats, the pool repeated to fill the seats).
fn groups(pool: &[usize], k: usize) -> Vec<Vec<usize>> {
    if pool.len() >= k {
        combinations(pool.len(), k)
            .into_iter()
            .map(|c| c.into_iter().map(|i| pool[i]).collect())
            .collect()
    } else {
        vec![(0..k).map(|i| pool[i % pool.len()]).collect()]
    }
}

/// The seats of each team, in team order (team ids as the game numbers them).
fn team_slots(teams: &[u8]) -> Vec<Vec<usize>> {
    let mut ids: Vec<u8> = teams.to_vec();
    ids.sort_unstable();
    ids.dedup();
    ids.iter()
        .map(|id| (0..teams.len()).filter(|&s| teams[s] == *id).collect())
        .collect()
}

/// Every way to split `members` into teams of the sizes in `sizes`, the teams
/// unordered when their sizes are equal (so {a,b}{c,d} and {c,d}{a,b} count
/// once). Each result lists the members of team 0, team 1, ...
fn partitions(members: &[usize], sizes: &[usize]) -> Vec<Vec<Vec<usize>>> {
    if sizes.is_empty() {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    // The first remaining member always joins the first team: this removes
    // the orderings of equal-sized teams.
    let (first, rest) = (members[0], &members[1..]);
    for others in combinations(rest.len(), sizes[0] - 1) {
        let mut team = vec![first];
        team.extend(others.iter().map(|&i| rest[i]));
        let left: Vec<usize> = rest
            .iter()
            .enumerate()
            .filter(|(i, _)| !others.contains(i))
            .map(|(_, &b)| b)
            .collect();
        for mut tail in partitions(&left, &sizes[1..]) {
            tail.insert(0, team.clone());
            out.push(tail);
        }
    }
    out
}

/// The seatings of one group in a partnership game: every split of the group
/// into partnerships, each with the partnerships rotated through the team
/// positions (so each partnership sits North/South and East/West). With fewer
/// bots than teams' seats, team i is bot i (mod n) in every one of its seats.
fn team_seatings(
    group: &[usize],
    slots: &[Vec<usize>],
    k: usize,
    distinct: bool,
) -> Vec<Vec<Vec<usize>>> {
    let t = slots.len();
    let splits: Vec<Vec<Vec<usize>>> = if distinct {
        partitions(group, &slots.iter().map(Vec::len).collect::<Vec<_>>())
    } else {
        vec![
            (0..t)
                .map(|i| vec![group[i % group.len()]; slots[i].len()])
                .collect(),
        ]
    };
    splits
        .into_iter()
        .map(|split| {
            (0..t)
                .map(|o| {
                    let mut seats = vec![0; k];
                    for (i, members) in split.iter().enumerate() {
                        for (seat, &b) in slots[(i + o) % t].iter().zip(members) {
                            seats[*seat] = b;
                        }
                    }
                    seats
                })
                .collect()
        })
        .collect()
}

/// Every match of the tournament, in schedule order.
///
/// Round robin: every group of k bots (k = seats per table), each in every
/// seat rotation, each match with its own deals. Duplicate: the same, but the
/// rotations of a group share their deals. Gauntlet: the challenger with
/// every group of k − 1 others, every rotation. One-seat games: every bot on
/// the same deals. Partnership games: every split of each group into
/// partnerships, each partnership in every team position (in a duplicate
/// event the positions of one split share their deals: partnerships swapped).
/// With `seatings = "permutations"` a group sits in all k! orders instead of
/// its k rotations. The whole schedule repeats `rounds` times with fresh deals.
pub fn plan(t: &Tournament) -> Vec<Planned> {
    if t.format == Format::Movement {
        return movement(t);
    }
    if t.format == Format::Budget {
        return budget(t);
    }
    let k = t.seats;
    let n = t.bots.len();
    let all: Vec<usize> = (0..n).collect();
    let table_groups: Vec<Vec<usize>> = match (t.format, t.challenger) {
        _ if k == 1 => all.iter().map(|&b| vec![b]).collect(),
        (Format::Gauntlet, Some(c)) => {
            let field: Vec<usize> = all.iter().copied().filter(|&b| b != c).collect();
            groups(&field, k - 1)
                .into_iter()
                .map(|mut g| {
                    g.insert(0, c);
                    g
                })
                .collect()
        }
        _ => groups(&all, k),
    };
    let mut out = Vec::new();
    let mut index = 0u64;
    let mut group_id = 0u64;
    for _round in 0..t.rounds {
        if k == 1 {
            // Solitaire: every bot plays the same deals, as in a duplicate event.
            let seed = t.seed.derive(Domain::Match, group_id);
            for g in &table_groups {
                out.push(Planned {
                    index,
                    seats: g.clone(),
                    match_seed: seed,
                    duplicate: Some((group_id, g[0] as u32)),
                });
                index += 1;
            }
            group_id += 1;
            continue;
        }
        let slots = team_slots(&t.teams);
        let deal_groups: Vec<Vec<Vec<usize>>> = if slots.len() > 1 && slots.len() < k {
            // Partnership games. With at least as many bots as seats, every
            // group of k is split into partnerships every way; with fewer, or
            // with `whole-partnerships`, each bot makes up a whole
            // partnership, in groups of one bot per team.
            let teams = slots.len();
            let groups_here: Vec<(Vec<usize>, bool)> = if n >= k
                && t.seatings != Seatings::WholePartnerships
            {
                table_groups.iter().map(|g| (g.clone(), true)).collect()
            } else {
                let pool: Vec<usize> = match (t.format, t.challenger) {
                    (Format::Gauntlet, Some(c)) => {
                        let field: Vec<usize> = all.iter().copied().filter(|&b| b != c).collect();
                        groups(&field, teams - 1)
                            .into_iter()
                            .flat_map(|mut g| {
                                g.insert(0, c);
                                g
                            })
                            .collect()
                    }
                    _ => groups(&all, teams).into_iter().flatten().collect(),
                };
                pool.chunks(teams).map(|g| (g.to_vec(), false)).collect()
            };
            groups_here
                .iter()
                .flat_map(|(g, distinct)| team_seatings(g, &slots, k, *distinct))
                .collect()
        } else {
            // Every seat rotation (or every order) of every group.
            table_groups
                .iter()
                .map(|g| match t.seatings {
                    // (Whole partnerships are refused outside partnership games.)
                    Seatings::Rotations | Seatings::WholePartnerships => (0..k)
                        .map(|r| (0..k).map(|s| g[(s + r) % k]).collect())
                        .collect(),
                    Seatings::Permutations => permutations(k)
                        .into_iter()
                        .map(|p| p.into_iter().map(|i| g[i]).collect())
                        .collect(),
                })
                .collect()
        };
        // The seatings of one deal group share its deals in a duplicate event.
        for seatings in deal_groups {
            let shared = t.seed.derive(Domain::Match, group_id);
            for (r, seats) in seatings.into_iter().enumerate() {
                let (match_seed, duplicate) = match t.format {
                    Format::Duplicate => (shared, Some((group_id, r as u32))),
                    _ => (t.seed.derive(Domain::Match, index), None),
                };
                out.push(Planned {
                    index,
                    seats,
                    match_seed,
                    duplicate,
                });
                index += 1;
            }
            group_id += 1;
        }
    }
    out
}

/// A movement: in each round, as many sets of deals as there are bots.
/// Each round shuffles the bots once (from the tournament seed); set `s`
/// of the round rotates that order by `s` and deals it into disjoint
/// tables in seat order, the `n mod k` left over sitting the set out, so
/// over a round every bot sits in every seat equally often. Every table of
/// a set shares its deals (its duplicate group is the set, its rotation the
/// table), so each seat is compared with the other tables' same seat on
/// the same cards, and no bot ever holds a deal twice.
fn movement(t: &Tournament) -> Vec<Planned> {
    let (k, n) = (t.seats, t.bots.len());
    let mut out = Vec::new();
    let mut index = 0u64;
    for round in 0..u64::from(t.rounds) {
        let mut base: Vec<usize> = (0..n).collect();
        let mut draw = whistle_rules::dealing::Shuffler::new(t.seed.derive(Domain::Bot, round));
        for i in (1..n).rev() {
            let j = draw.below(i as u32 + 1) as usize;
            base.swap(i, j);
        }
        for s in 0..n {
            let set = round * n as u64 + s as u64;
            let shared = t.seed.derive(Domain::Match, set);
            let order: Vec<usize> = (0..n).map(|i| base[(i + s) % n]).collect();
            for (table, seats) in order.chunks_exact(k).enumerate() {
                out.push(Planned {
                    index,
                    seats: seats.to_vec(),
                    match_seed: shared,
                    duplicate: Some((set, table as u32)),
                });
                index += 1;
            }
        }
    }
    out
}

/// A budget event (see [`Format::Budget`]): every bot plays exactly
/// `matches_per_bot` matches where the arithmetic allows it (the bots'
/// seats, `n × matches_per_bot`, fill whole tables), else `matches_per_bot`
/// or one more ([`budget_counts`] says which, before play); never a bot
/// without a match.
///
/// First come sessions: k sets of deals at the same tables, seats rotating,
/// so each bot of a session sits in every seat once. Each bot plays as many
/// sessions as its budget holds whole, less what would leave the field
/// uneven (a session seats k bots a table: the bots' sessions, `n × s`,
/// must fill whole tables). The budget's rest is played set by set, each
/// bot in the seat it has held least. Sessions and sets alike seat the
/// bots that have played least (ties by a shuffle from the tournament
/// seed), spread over as few sets as the field allows with their tables
/// shared out evenly (so a set is played at two tables or more wherever
/// there are two to play), and form each table greedily: it starts with
/// the bot that played least and takes, one by one, the bots it has met
/// least. A set's tables share its deals; no bot holds a deal twice.
fn budget(t: &Tournament) -> Vec<Planned> {
    let (k, n) = (t.seats, t.bots.len());
    let want = t.matches_per_bot.unwrap_or(k as u32) as usize;
    let mut b = Budget {
        t,
        k,
        met: vec![vec![0u32; n]; n],
        played: vec![0usize; n],
        seats: vec![vec![0u32; k]; n],
        out: Vec::new(),
        set: 0,
    };
    if n < k || k == 0 {
        return Vec::new();
    }
    let wide = n / k;
    // Whole sessions: `s` a bot, with n·s a multiple of k.
    let step = k / gcd(n, k);
    let sessions = want / k / step * step;
    let tables = n * sessions / k;
    for size in spread(tables, wide) {
        let seated = b.seat(size);
        b.play(&seated, k);
    }
    // The rest, set by set.
    let matches = (n * want).div_ceil(k) - tables * k;
    for size in spread(matches, wide) {
        let seated = b.seat(size);
        b.play(&seated, 1);
    }
    b.out
}

/// How many matches each bot of a budget event plays: `(matches_per_bot,
/// bots playing one more)`; the second is 0 when `n × matches_per_bot`
/// fills whole tables.
pub fn budget_counts(t: &Tournament) -> (u32, usize) {
    let (k, n) = (t.seats.max(1), t.bots.len());
    let want = t.matches_per_bot.unwrap_or(k as u32);
    let seats = n * want as usize;
    (want, seats.div_ceil(k) * k - seats)
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// `total` things in as few groups of at most `wide` as hold them, their
/// sizes as even as can be (larger first).
fn spread(total: usize, wide: usize) -> Vec<usize> {
    if total == 0 || wide == 0 {
        return Vec::new();
    }
    let groups = total.div_ceil(wide);
    (0..groups)
        .map(|g| total / groups + usize::from(g < total % groups))
        .collect()
}

/// A budget schedule being built.
struct Budget<'a> {
    t: &'a Tournament,
    k: usize,
    /// Matches each two bots sat at one table.
    met: Vec<Vec<u32>>,
    /// Matches each bot played.
    played: Vec<usize>,
    /// Matches each bot played in each seat.
    seats: Vec<Vec<u32>>,
    out: Vec<Planned>,
    /// The next set of deals.
    set: u64,
}

impl Budget<'_> {
    /// `size` tables of the bots that played least, the least-met together.
    fn seat(&mut self, size: usize) -> Vec<Vec<usize>> {
        let (k, n) = (self.k, self.played.len());
        // Ties broken by a fresh shuffle each time (sets and sessions
        // number their shuffles apart).
        let mut tiebreak: Vec<usize> = (0..n).collect();
        let mut draw =
            whistle_rules::dealing::Shuffler::new(self.t.seed.derive(Domain::Bot, self.set));
        for i in (1..n).rev() {
            let j = draw.below(i as u32 + 1) as usize;
            tiebreak.swap(i, j);
        }
        let mut rank = vec![0usize; n];
        for (r, &b) in tiebreak.iter().enumerate() {
            rank[b] = r;
        }
        let played = &self.played;
        let mut free: Vec<usize> = (0..n).collect();
        free.sort_by_key(|&b| (played[b], rank[b]));
        free.truncate(size * k);
        // A bot's least-held seats; set by set, a table's bots should want
        // different ones.
        let least = |b: usize| {
            let row = &self.seats[b];
            let low = row.iter().copied().min().unwrap_or(0);
            (0..k).filter(|&s| row[s] == low).collect::<Vec<usize>>()
        };
        let mut tables = Vec::with_capacity(size);
        while !free.is_empty() {
            let mut table = vec![free.remove(0)];
            let mut claimed: Vec<usize> = least(table[0]).into_iter().take(1).collect();
            while table.len() < k {
                let Some((pos, _)) = free.iter().enumerate().min_by_key(|&(_, &b)| {
                    (
                        table.iter().map(|&m| self.met[m][b]).sum::<u32>(),
                        least(b).iter().all(|s| claimed.contains(s)),
                        played[b],
                        rank[b],
                    )
                }) else {
                    break;
                };
                let b = free.remove(pos);
                if let Some(&s) = least(b).iter().find(|s| !claimed.contains(s)) {
                    claimed.push(s);
                }
                table.push(b);
            }
            tables.push(table);
        }
        tables
    }

    /// `sets` sets of deals at `tables`: with k sets (a session) each table
    /// rotated by the set; with one, each bot where it sat least.
    fn play(&mut self, tables: &[Vec<usize>], sets: usize) {
        let k = self.k;
        let orders = if k <= 5 {
            permutations(k)
        } else {
            (0..k)
                .map(|r| (0..k).map(|s| (s + r) % k).collect())
                .collect()
        };
        for r in 0..sets {
            let shared = self.t.seed.derive(Domain::Match, self.set);
            for (g, table) in tables.iter().enumerate() {
                let seats: Vec<usize> = if sets == k {
                    (0..k).map(|s| table[(s + r) % k]).collect()
                } else {
                    // The order whose seats these bots held least.
                    let best = orders
                        .iter()
                        .min_by_key(|o| {
                            o.iter()
                                .enumerate()
                                .map(|(s, &i)| {
                                    // How far over its least-held seat.
                                    let row = &self.seats[table[i]];
                                    let over = row[s] - row.iter().copied().min().unwrap_or(0);
                                    over * over
                                })
                                .sum::<u32>()
                        })
                        .expect("at least one order");
                    best.iter().map(|&i| table[i]).collect()
                };
                for (s, &a) in seats.iter().enumerate() {
                    self.played[a] += 1;
                    self.seats[a][s] += 1;
                    for &o in &seats {
                        if o != a {
                            self.met[a][o] += 1;
                        }
                    }
                }
                self.out.push(Planned {
                    index: self.out.len() as u64,
                    seats,
                    match_seed: shared,
                    duplicate: Some((self.set, g as u32)),
                });
            }
            self.set += 1;
        }
    }
}

/// A shard `i/n`: the matches whose index is `i` modulo `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// This shard, 0-based.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
}

impl Shard {
    /// Parses `i/n` with `0 <= i < n`.
    ///
    /// # Errors
    /// A message for a malformed shard.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("shard `{s}` is not of the form i/n"))?;
        let index: u64 = i
            .trim()
            .parse()
            .map_err(|_| format!("bad shard index `{i}`"))?;
        let count: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("bad shard count `{n}`"))?;
        if count == 0 || index >= count {
            return Err(format!("shard {index}/{count}: need 0 <= i < n"));
        }
        Ok(Shard { index, count })
    }

    /// Whether match `index` belongs to this shard.
    pub fn owns(self, index: u64) -> bool {
        index % self.count == self.index
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn tournament(extra: &str, bots: usize, game: &str) -> Tournament {
        let mut text = format!("name = \"t\"\ngame = \"{game}\"\nseed = 1\nhands = 1\n{extra}\n");
        for i in 0..bots {
            text.push_str(&format!("[[bots]]\nname = \"b{i}\"\ncommand = \"x\"\n"));
        }
        Tournament::parse(Path::new("t.toml"), &text).unwrap()
    }

    #[test]
    fn a_movement_never_seats_a_bot_twice_on_one_deal_and_shares_deals_across_tables() {
        let t = tournament("format = \"movement\"\nrounds = 2", 9, "israeli");
        let plan = plan(&t);
        let mut sets: std::collections::BTreeMap<u64, Vec<&Planned>> = Default::default();
        for p in &plan {
            sets.entry(p.duplicate.unwrap().0).or_default().push(p);
        }
        assert_eq!(sets.len(), 18, "as many sets a round as bots");
        let mut seats_held = vec![[0u32; 4]; 9];
        for tables in sets.values() {
            assert_eq!(tables.len(), 2, "9 bots, 4 seats: two tables, one bot out");
            let mut seen = std::collections::BTreeSet::new();
            for p in tables {
                assert_eq!(p.match_seed, tables[0].match_seed, "one set, one deal");
                for (seat, &b) in p.seats.iter().enumerate() {
                    assert!(seen.insert(b), "bot {b} twice on one deal");
                    seats_held[b][seat] += 1;
                }
            }
        }
        // Every bot sits in every seat equally often (twice a round here).
        assert!(
            seats_held.iter().all(|s| s.iter().all(|&n| n == 4)),
            "{seats_held:?}"
        );
        // No fresh instances needed: remote bots may play a movement.
        assert_eq!(crate::confine::replays_deals(&t, &plan), None);
        let few = "name = \"t\"\ngame = \"israeli\"\nseed = 1\nhands = 1\nformat = \"movement\"\n\
                   [[bots]]\nname = \"a\"\ncommand = \"x\"\n";
        let e = Tournament::parse(Path::new("t.toml"), few).unwrap_err();
        assert!(e.to_string().contains("at least 8 bots"), "{e}");
    }

    /// A class of 40 (and 41): every bot plays its budget, every seat as
    /// often, opponents spread, deals shared across tables and never held
    /// twice by a bot.
    #[test]
    fn a_budget_spreads_a_class_of_forty_evenly() {
        for n in [40usize, 41] {
            let t = tournament("format = \"budget\"\nmatches_per_bot = 24", n, "israeli");
            let plan = plan(&t);
            let mut played = vec![0usize; n];
            let mut seats = vec![[0usize; 4]; n];
            let mut met = vec![vec![0u32; n]; n];
            let mut sets: std::collections::BTreeMap<u64, Vec<&Planned>> = Default::default();
            for p in &plan {
                sets.entry(p.duplicate.unwrap().0).or_default().push(p);
                for (seat, &b) in p.seats.iter().enumerate() {
                    played[b] += 1;
                    seats[b][seat] += 1;
                    for &o in &p.seats {
                        if o != b {
                            met[b][o] += 1;
                        }
                    }
                }
            }
            for tables in sets.values() {
                assert!(tables.len() >= 8, "a set at 8 tables or more");
                let mut seen = std::collections::BTreeSet::new();
                for p in tables {
                    assert_eq!(p.match_seed, tables[0].match_seed, "one set, one deal");
                    for &b in &p.seats {
                        assert!(seen.insert(b), "bot {b} twice on one deal");
                    }
                }
            }
            assert!(played.iter().all(|&p| p == 24), "n = {n}: {played:?}");
            assert_eq!(plan.len(), n * 24 / 4);
            if n == 40 {
                assert!(seats.iter().all(|s| s.iter().all(|&c| c == 6)), "{seats:?}");
            } else {
                // Four whole sessions (41 × 4 fills whole tables), the rest
                // set by set: every seat 5 to 7 times.
                assert!(
                    seats
                        .iter()
                        .all(|s| s.iter().all(|&c| (5..=7).contains(&c))),
                    "{seats:?}"
                );
            }
            // Each bot meets three others a session (four matches with
            // each): at most twice any one, and mostly new faces.
            for (b, row) in met.iter().enumerate() {
                let sessions_together = row.iter().map(|&m| m / 4).max().unwrap();
                let distinct = row.iter().filter(|&&m| m > 0).count();
                assert!(
                    sessions_together <= 2,
                    "n = {n}: bot {b} met one bot {sessions_together} sessions"
                );
                assert!(distinct >= 14, "n = {n}: bot {b} met only {distinct} bots");
            }
            assert_eq!(crate::confine::replays_deals(&t, &plan), None);
        }
        let e = Tournament::parse(
            Path::new("t.toml"),
            &format!(
                "name = \"t\"\ngame = \"israeli\"\nseed = 1\nhands = 1\nformat = \"budget\"\n{}",
                (0..8)
                    .map(|i| format!("[[bots]]\nname = \"b{i}\"\ncommand = \"x\"\n"))
                    .collect::<String>()
            ),
        )
        .unwrap_err();
        assert!(e.to_string().contains("matches_per_bot"), "{e}");
    }

    /// Every field of 10 to 60 bots, tables of 2 to 5 and several budgets:
    /// every bot plays its budget exactly where `n × budget` fills whole
    /// tables, else the budget or one more (as [`budget_counts`] says);
    /// never a bot without a match, never a deal held twice by one bot,
    /// every set at two tables or more where there are two to play, seats
    /// and opponents spread.
    #[test]
    fn a_budget_is_even_for_every_field_and_budget() {
        for k in [2usize, 3, 4, 5] {
            for n in (10..=60).step_by(1) {
                if n < 2 * k || (k != 4 && n % 3 != 0) {
                    continue;
                }
                for m in [1u32, 2, 3, 4, 5, 6, 8, 12, 24] {
                    let mut t = tournament(
                        &format!("format = \"budget\"\nmatches_per_bot = {m}"),
                        n,
                        "israeli",
                    );
                    t.seats = k;
                    t.teams = (0..k as u8).collect();
                    let plan = plan(&t);
                    let (per_bot, more) = budget_counts(&t);
                    assert_eq!(per_bot, m);
                    assert_eq!(
                        plan.len() * k,
                        n * m as usize + more,
                        "k = {k}, n = {n}, m = {m}"
                    );
                    assert_eq!(more == 0, n * m as usize % k == 0);
                    let mut played = vec![0usize; n];
                    let mut seats = vec![vec![0usize; k]; n];
                    let mut opponents = vec![std::collections::BTreeSet::<usize>::new(); n];
                    let mut sets: std::collections::BTreeMap<u64, Vec<&Planned>> =
                        Default::default();
                    for (i, p) in plan.iter().enumerate() {
                        assert_eq!(p.index, i as u64);
                        assert_eq!(p.seats.len(), k);
                        sets.entry(p.duplicate.unwrap().0).or_default().push(p);
                        for (s, &b) in p.seats.iter().enumerate() {
                            played[b] += 1;
                            seats[b][s] += 1;
                            opponents[b].extend(p.seats.iter().filter(|&&o| o != b));
                        }
                    }
                    let what = format!("k = {k}, n = {n}, m = {m}: {played:?}");
                    assert!(
                        played
                            .iter()
                            .all(|&p| p == m as usize || p == m as usize + 1),
                        "{what}"
                    );
                    assert_eq!(
                        played.iter().filter(|&&p| p > m as usize).count(),
                        more,
                        "{what}"
                    );
                    // A set at a single table only where an odd number
                    // of tables is left with room for two a set.
                    if n / k > 2 {
                        assert!(sets.values().all(|t| t.len() >= 2), "{what}");
                    }
                    for tables in sets.values() {
                        let mut seen = std::collections::BTreeSet::new();
                        for p in tables {
                            assert_eq!(p.match_seed, tables[0].match_seed, "{what}");
                            for &b in &p.seats {
                                assert!(seen.insert(b), "bot {b} twice on one deal: {what}");
                            }
                        }
                    }
                    // Seats: within one of an even share, or of each other.
                    for s in &seats {
                        let (lo, hi) = (s.iter().min().unwrap(), s.iter().max().unwrap());
                        assert!(hi - lo <= 2, "seats {s:?}: {what}");
                    }
                    // Opponents: a bot meets as many others as it can,
                    // or nearly (k − 1 new faces a session of k matches).
                    for (b, o) in opponents.iter().enumerate() {
                        let could = ((k - 1) * played[b].div_ceil(k)).min(n - 1);
                        assert!(
                            o.len() * 2 >= could,
                            "bot {b} met {} of {could}: {what}",
                            o.len()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn permutations_are_every_order_once() {
        assert_eq!(
            permutations(3),
            [
                [0, 1, 2],
                [0, 2, 1],
                [1, 0, 2],
                [1, 2, 0],
                [2, 0, 1],
                [2, 1, 0]
            ]
        );
        assert_eq!(permutations(1), [[0]]);
        let p = permutations(4);
        assert_eq!(p.len(), 24);
        let mut sorted = p.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, p, "distinct and in order");
    }

    /// Every bot of a group sits in every seat with every other bot at every
    /// distance around the table equally often, on the same deals.
    #[test]
    fn duplicate_permutations_balance_neighbours_on_shared_deals() {
        let t = tournament(
            "format = \"duplicate\"\nseatings = \"permutations\"",
            5,
            "israeli",
        );
        let p = plan(&t);
        assert_eq!(p.len(), 5 * 24);
        for group in p.chunks(24) {
            assert!(group.iter().all(|m| m.match_seed == group[0].match_seed));
            let mut seen = std::collections::BTreeMap::new();
            for m in group {
                for s in 0..4 {
                    for d in 1..4 {
                        *seen
                            .entry((m.seats[s], s, m.seats[(s + d) % 4], d))
                            .or_insert(0) += 1;
                    }
                }
            }
            // Each (bot, seat, other bot, distance) occurs twice: the two
            // remaining bots fill the other seats either way.
            assert!(seen.values().all(|&n| n == 2), "{seen:?}");
            assert_eq!(seen.len(), 4 * 4 * 3 * 3);
        }
    }

    #[test]
    fn combinations_are_lexicographic() {
        assert_eq!(
            combinations(4, 2),
            [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
        );
        assert_eq!(combinations(3, 3), [[0, 1, 2]]);
    }

    #[test]
    fn round_robin_covers_every_group_and_rotation_with_fresh_deals() {
        let t = tournament("", 5, "israeli");
        let p = plan(&t);
        assert_eq!(p.len(), 5 * 4); // C(5,4) groups × 4 rotations
        let seeds: std::collections::HashSet<_> = p.iter().map(|m| m.match_seed).collect();
        assert_eq!(seeds.len(), p.len());
        // Every bot sits in every seat equally often.
        for b in 0..5 {
            for s in 0..4 {
                let n = p.iter().filter(|m| m.seats[s] == b).count();
                assert_eq!(n, 4, "bot {b} seat {s}");
            }
        }
    }

    #[test]
    fn duplicate_rotations_share_deals() {
        let t = tournament("format = \"duplicate\"", 4, "israeli");
        let p = plan(&t);
        assert_eq!(p.len(), 4);
        assert!(p.iter().all(|m| m.match_seed == p[0].match_seed));
        assert_eq!(p[1].seats, [1, 2, 3, 0]);
        assert_eq!(p[1].duplicate, Some((0, 1)));
    }

    #[test]
    fn gauntlet_puts_the_challenger_in_every_match() {
        let t = tournament("format = \"gauntlet\"\nchallenger = \"b2\"", 5, "honeymoon");
        let p = plan(&t);
        assert_eq!(p.len(), 4 * 2);
        assert!(p.iter().all(|m| m.seats.contains(&2)));
    }

    #[test]
    fn partnership_games_split_every_group_every_way_and_swap_partnerships() {
        let t = tournament("format = \"duplicate\"", 4, "illustrated");
        let p = plan(&t);
        // Three splits of four bots into pairs, each in both team positions.
        assert_eq!(p.len(), 6);
        let pairs: std::collections::HashSet<(usize, usize)> = p
            .iter()
            .map(|m| (m.seats[0].min(m.seats[2]), m.seats[0].max(m.seats[2])))
            .collect();
        assert_eq!(pairs.len(), 6, "every pair of bots sits North/South once");
        for w in p.chunks(2) {
            assert_eq!(
                w[0].match_seed, w[1].match_seed,
                "a split's two positions share deals"
            );
            assert_eq!(w[0].seats[0], w[1].seats[1], "partnerships swapped");
        }
        // Two bots: each is a partnership of one bot in both of its seats.
        let t = tournament("", 2, "illustrated");
        let p = plan(&t);
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].seats, [0, 1, 0, 1]);
        assert_eq!(p[1].seats, [1, 0, 1, 0]);
        // Three bots: every pair of them meets, each bot a whole partnership.
        let t = tournament("", 3, "illustrated");
        let p = plan(&t);
        assert_eq!(p.len(), 3 * 2);
        for b in 0..3 {
            assert_eq!(p.iter().filter(|m| m.seats.contains(&b)).count(), 4);
        }
        // Four bots with whole partnerships: the six pairs, each in both
        // team positions on shared deals, a bot in both seats of its side.
        let t = tournament(
            "format = \"duplicate\"\nseatings = \"whole-partnerships\"",
            4,
            "illustrated",
        );
        let p = plan(&t);
        assert_eq!(p.len(), 6 * 2);
        for w in p.chunks(2) {
            assert_eq!(w[0].match_seed, w[1].match_seed);
            assert_eq!(w[0].seats[0], w[0].seats[2]);
            assert_eq!(w[0].seats[1], w[0].seats[3]);
            assert_ne!(w[0].seats[0], w[0].seats[1]);
            assert_eq!(w[0].seats[0], w[1].seats[1], "sides swapped");
        }
    }

    #[test]
    fn shards_are_disjoint_and_cover_the_schedule() {
        let shards: Vec<Shard> = (0..3)
            .map(|i| Shard::parse(&format!("{i}/3")).unwrap())
            .collect();
        for i in 0..30 {
            assert_eq!(shards.iter().filter(|s| s.owns(i)).count(), 1);
        }
        assert!(Shard::parse("3/3").is_err());
        assert!(Shard::parse("x").is_err());
    }
}
