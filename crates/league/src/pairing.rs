//! How a round seats the league's bots.
//!
//! Every active bot plays at most one table a round. The bot that has played
//! least sits first; each next seat goes to the bot that has met the table's
//! bots least often (then the least played, then by name), so opponents
//! spread over the rounds. Bots left over when fewer than a table's seats
//! remain sit out, unless the league fills seats with its reference bots
//! (which may then play a second table). A duplicate league's round is a
//! movement: each set of deals is played at every table at once, seats
//! rotating from set to set (see [`plan`]).

use std::collections::BTreeMap;

use whistle_rules::dealing::{Domain, Seed};
use whistle_tournament::schedule::Planned;

/// A bot that may be seated this round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// Its name.
    pub name: String,
    /// Matches it has played.
    pub played: u64,
    /// Whether it is a reference bot (one that may fill empty seats).
    pub reference: bool,
    /// Whether it only fills seats (a reference bot while the league
    /// serves: tables form around the bots that connected).
    pub filler_only: bool,
}

/// The tables of a round: groups of `k` indices into `bots`.
/// `met[(a, b)]` (names in order) counts earlier meetings.
pub fn tables(
    bots: &[Candidate],
    met: &BTreeMap<(String, String), u64>,
    k: usize,
    fill: bool,
) -> Vec<Vec<usize>> {
    let meetings = |a: usize, b: usize| {
        let (x, y) = (&bots[a].name, &bots[b].name);
        let key = if x < y {
            (x.clone(), y.clone())
        } else {
            (y.clone(), x.clone())
        };
        met.get(&key).copied().unwrap_or(0)
    };
    let mut waiting: Vec<usize> = (0..bots.len()).filter(|&b| !bots[b].filler_only).collect();
    waiting.sort_by(|&a, &b| (bots[a].played, &bots[a].name).cmp(&(bots[b].played, &bots[b].name)));
    let mut out = Vec::new();
    while !waiting.is_empty() {
        if waiting.len() < k {
            if !fill {
                break;
            }
            // Reference bots not at this table fill its seats.
            let mut group = std::mem::take(&mut waiting);
            let mut spare: Vec<usize> = (0..bots.len())
                .filter(|&b| bots[b].reference && !group.contains(&b))
                .collect();
            while group.len() < k && !spare.is_empty() {
                let best = pick(&spare, &group, bots, &meetings);
                group.push(spare.remove(best));
            }
            if group.len() == k {
                out.push(group);
            }
            break;
        }
        let mut group = vec![waiting.remove(0)];
        while group.len() < k {
            let best = pick(&waiting, &group, bots, &meetings);
            group.push(waiting.remove(best));
        }
        out.push(group);
    }
    out
}

/// The index in `from` of the bot that has met `group` least (then the least
/// played, then the first by name).
fn pick(
    from: &[usize],
    group: &[usize],
    bots: &[Candidate],
    meetings: &impl Fn(usize, usize) -> u64,
) -> usize {
    (0..from.len())
        .min_by_key(|&i| {
            let b = from[i];
            let met: u64 = group.iter().map(|&g| meetings(g, b)).sum();
            (met, bots[b].played, bots[b].name.clone())
        })
        .expect("a bot to pick from")
}

/// The matches of a round's tables. In a duplicate league the round is a
/// movement: `k` sets of deals, each played at every table at once (set `r`
/// with every table's seats rotated by `r`), so each bot sits in every seat,
/// no bot holds a deal twice (bots that connect by themselves need no fresh
/// instances), and each seat is compared with the same seat at the other
/// tables on the same cards. Else one match a table. Seeds derive from the
/// round's seed.
pub fn plan(groups: &[Vec<usize>], duplicate: bool, seed: Seed) -> Vec<Planned> {
    let mut out = Vec::new();
    let mut index = 0u64;
    let sets = if duplicate {
        groups.iter().map(Vec::len).max().unwrap_or(0)
    } else {
        1
    };
    for r in 0..sets {
        let shared = seed.derive(Domain::Match, r as u64);
        for (g, group) in groups.iter().enumerate() {
            let k = group.len();
            out.push(Planned {
                index,
                seats: (0..k).map(|s| group[(s + r) % k]).collect(),
                match_seed: if duplicate {
                    shared
                } else {
                    seed.derive(Domain::Match, index)
                },
                duplicate: duplicate.then_some((r as u64, g as u32)),
            });
            index += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bots(played: &[u64]) -> Vec<Candidate> {
        played
            .iter()
            .enumerate()
            .map(|(i, &p)| Candidate {
                name: format!("b{i}"),
                played: p,
                reference: i < 3,
                filler_only: false,
            })
            .collect()
    }

    #[test]
    fn least_played_first_and_opponents_spread() {
        let b = bots(&[5, 0, 0, 3, 3, 1]);
        let mut met = BTreeMap::new();
        met.insert(("b1".into(), "b2".into()), 4);
        let t = tables(&b, &met, 2, false);
        // b1 (0 played) first; it has met b2 four times, so b5 (1 played,
        // never met) joins it; then b2 with the least met of the rest.
        assert_eq!(t, vec![vec![1, 5], vec![2, 3], vec![4, 0]]);
    }

    #[test]
    fn leftovers_sit_out_or_are_filled_by_reference_bots() {
        let b = bots(&[0, 0, 0, 0, 0]);
        let none = BTreeMap::new();
        assert_eq!(tables(&b, &none, 4, false).len(), 1);
        let filled = tables(&b, &none, 4, true);
        assert_eq!(filled.len(), 2);
        assert!(
            filled[1].contains(&4) && filled[1].contains(&0),
            "{filled:?}"
        );
        // Every bot at most once per table.
        for t in &filled {
            let mut s = t.clone();
            s.dedup();
            assert_eq!(s.len(), 4);
        }
    }

    #[test]
    fn fillers_only_fill() {
        let mut b = bots(&[0, 0, 0, 0, 0]);
        for x in &mut b[..3] {
            x.filler_only = true;
        }
        let none = BTreeMap::new();
        // Two bots that connected, two of the three reference bots with them.
        let t = tables(&b, &none, 4, true);
        assert_eq!(t, vec![vec![3, 4, 0, 1]]);
        // Without a bot of its own no table forms.
        assert!(tables(&b[..3], &none, 2, true).is_empty());
    }

    #[test]
    fn a_duplicate_round_is_a_movement_with_every_seat_and_no_deal_held_twice() {
        let p = plan(&[vec![3, 1, 2], vec![0, 4, 5]], true, Seed::from_u64(9));
        assert_eq!(p.len(), 6, "3 sets of deals at 2 tables");
        for set in p.chunks(2) {
            assert_eq!(
                set[0].match_seed, set[1].match_seed,
                "a set shares its deals"
            );
            assert_eq!(set[0].duplicate.unwrap().0, set[1].duplicate.unwrap().0);
        }
        assert_ne!(p[0].match_seed, p[2].match_seed, "each set its own deals");
        assert_eq!(p[2].seats, vec![1, 2, 3], "seats rotate from set to set");
        let mut held = std::collections::HashSet::new();
        for m in &p {
            for &b in &m.seats {
                assert!(held.insert((m.match_seed, b)), "bot {b} held a deal twice");
            }
        }
        let q = plan(&[vec![3, 1, 2], vec![0, 4, 5]], false, Seed::from_u64(9));
        assert_eq!(q.len(), 2);
        assert_ne!(q[0].match_seed, q[1].match_seed);
    }
}
