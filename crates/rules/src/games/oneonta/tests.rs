//! Scenario tests of oneonta, named by RULES.md decision ids.

use super::*;
use crate::dealing::{Seed, Shuffler, deal_if_needed, deck_from_hands};
use crate::games::testing::{act, card, cards, seat};

fn game(options: &[&str]) -> Oneonta {
    Oneonta::new(&Options::parse(options).unwrap()).unwrap()
}

/// Deals the next hand: `hands[s]` to seat `s` (empty for a seat sitting
/// out) and `rest`, in order, everywhere else: the dummy's pile in deal
/// order (where there is a dummy), then the card turned up, then the
/// undealt cards.
fn deal(g: &mut Oneonta, hands: &[&str], rest: &str) {
    let hands: Vec<CardSet> = hands.iter().map(|h| cards(h)).collect();
    let rest: Vec<Card> = rest.split_whitespace().map(card).collect();
    let order = deck_from_hands(g, &hands, &rest).unwrap();
    g.deal(&order).unwrap();
}

fn legal(g: &Oneonta, s: usize) -> Vec<String> {
    g.legal_actions(seat(s))
        .iter()
        .map(Action::to_string)
        .collect()
}

fn legal_cards(g: &Oneonta, s: usize) -> CardSet {
    g.legal_actions(seat(s))
        .iter()
        .map(|a| a.card().unwrap())
        .collect()
}

fn rule(id: &'static str, text: &'static str) -> Result<(), IllegalReason> {
    Err(IllegalReason::Rule { id, text })
}

/// Every seat to act plays its first legal card until the hand ends.
fn play_out(g: &mut Oneonta) {
    while g.stage == Stage::Play {
        let s = g.to_act().first().unwrap();
        let a = g.legal_actions(s)[0];
        g.apply(s, a).unwrap();
    }
}

/// Whether the Debug text of `value` names `card` as a word.
fn names(text: &str, card: Card) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w == card.to_string())
}

// ----- the solitaire deal used by most solitaire scenarios -----

/// The player's hand: every card follows the dummy's leads, so the play
/// decides nothing but which card of a pair goes first.
const PLAYER: &str = "KH QH JH QC TC QD TD QS TS";
/// The dummy's pile in deal order (BJ is led first), then TH turned up
/// (hearts are trump), then the three undealt aces.
const DUMMY_AND_REST: &str = "BJ LJ AH KC JC KD JD KS JS TH AC AD AS";

fn solitaire(options: &[&str]) -> Oneonta {
    let mut g = game(options);
    deal(&mut g, &[PLAYER], DUMMY_AND_REST);
    g
}

/// Plays a hand of the solitaire deal. The dummy leads BJ, LJ and AH (the
/// player must follow with a heart and loses), then K and J of clubs,
/// diamonds and spades. The player holds Q and T of each: the queen on the
/// king loses and the ten on the jack loses (no trick), while the ten on
/// the king and the queen on the jack win one trick. The player takes
/// exactly one trick in each suit of `win`.
fn play_solitaire(g: &mut Oneonta, win: &[Suit]) {
    while g.stage == Stage::Play {
        let led = g.trick.led_card().unwrap();
        let pick = match (led.rank(), led.suit()) {
            (Some(Rank::King), Some(s)) if win.contains(&s) => Card::new(Rank::Ten, s),
            (Some(Rank::King), Some(s)) => Card::new(Rank::Queen, s),
            _ => legal_cards(g, 0).first().unwrap(),
        };
        g.apply(seat(0), Action::Play(pick)).unwrap();
    }
}

/// Plays solitaire hands of the deal above: each a bid and the suits won.
fn solitaire_match(options: &[&str], plan: &[(&str, &[Suit])]) -> Oneonta {
    let mut g = game(options);
    for (bid, win) in plan {
        deal(&mut g, &[PLAYER], DUMMY_AND_REST);
        act(&mut g, 0, bid);
        play_solitaire(&mut g, win);
    }
    g
}

const C: Suit = Suit::Clubs;
const D: Suit = Suit::Diamonds;
const S: Suit = Suit::Spades;

// ----- multiplayer deals in which one seat takes every trick -----

/// Two players, 8–A (O11), hearts trump (8H turned). The strong hand holds
/// every other trump and AS, and the weak one neither hearts nor spades:
/// whoever leads, each card of the strong hand wins when it is led.
const STRONG2: &str = "9H TH JH QH KH AH BJ LJ AS";
const WEAK2: &str = "8C 9C TC JC QC KC AC 8D 9D";
const REST2: &str = "8H TD JD QD KD AD 8S 9S TS JS QS KS";

/// Three players, T–A (O11), hearts trump (TH turned): the strong hand
/// takes every trick it leads, and wins the lead back each time.
const STRONG3: &str = "BJ LJ AH KH QH JH AS";
const CLUBS3: &str = "AC KC QC JC TC AD KD";
const SPADES3: &str = "QD JD TD KS QS JS TS";

#[test]
fn o1_solitaire_deck_is_ten_to_ace_and_both_jokers() {
    let g = game(&[]);
    assert_eq!(g.seats(), 1);
    assert_eq!(
        g.deck(),
        cards("TC JC QC KC AC TD JD QD KD AD TH JH QH KH AH TS JS QS KS AS LJ BJ")
    );
    assert_eq!(g.deck().len(), 22);
    // 9 + 9 + 4 (O2): the deck is exactly enough.
    assert_eq!(2 * 9 + 4, g.deck().len());
    assert_eq!(deck_for(Mode::Solitaire, 1), (decks::reduced(Rank::Ten), 9));
}

#[test]
fn o2_solitaire_deal_alternates_dummy_first_and_turns_the_nineteenth_card() {
    let mut g = game(&[]);
    let order = g.deck().to_vec();
    // TC JC QC KC AC TD JD QD KD AD TH JH QH KH AH TS JS QS KS | AS LJ BJ
    g.deal(&order).unwrap();
    assert_eq!(g.hands[0], cards("JC KC TD QD AD JH KH TS QS"));
    assert_eq!(
        g.dummy.as_slice(),
        cards("TC QC AC JD KD TH QH AH JS").to_vec().as_slice(),
        "the dummy's pile in deal order"
    );
    assert_eq!(g.turn_up, Some(card("KS")));
    assert_eq!(g.undealt, cards("AS LJ BJ"));
    let o = g.observe(seat(0));
    assert_eq!(o.phase, Phase::Bid);
    assert_eq!(o.trump, Trump::Suit(Suit::Spades));
    assert_eq!(
        o.table,
        [TableCard {
            label: "turn-up".into(),
            owner: None,
            card: card("KS")
        }]
    );
    assert_eq!(
        o.piles,
        [("dummy".to_string(), 9), ("undealt".to_string(), 3)]
    );
    assert_eq!(
        o.history,
        [
            Event::HandStart {
                deal: 0,
                dealer: seat(0)
            },
            Event::Dealt {
                seat: seat(0),
                cards: g.hands[0]
            },
            Event::TurnUp { card: card("KS") },
        ]
    );
    assert_eq!(g.seen_by(seat(0)), g.hands[0].or(cards("KS")));
}

/// O3 checks shared by every form: the trump is the lone joker's suit.
fn assert_lone_joker(g: &Oneonta, joker: Card) {
    assert_eq!(g.observe(seat(0)).trump, Trump::Jokers);
    assert_eq!(g.rules.suit_of(joker), suit_id::JOKERS);
    assert_eq!(g.rules.trump(), suit_id::JOKERS);
    assert_eq!(g.rules.suit_mask(suit_id::JOKERS), CardSet::single(joker));
}

#[test]
fn o3_solitaire_joker_turned_the_other_is_the_only_trump() {
    let mut g = game(&["hands=1"]);
    deal(
        &mut g,
        &["BJ AC KC QC JC TC AD KD QD"],
        "TD AH KH QH JH TH AS KS QS LJ JD JS TS",
    );
    assert_lone_joker(&g, Card::BIG_JOKER);
    act(&mut g, 0, "bid 2");
    // TD led: the player must follow with a diamond; BJ follows nothing.
    assert_eq!(legal_cards(&g, 0), cards("QD KD AD"));
    assert_eq!(
        g.check(seat(0), Action::Play(Card::BIG_JOKER)),
        Err(IllegalReason::MustFollow(Suit::Diamonds))
    );
    act(&mut g, 0, "QD");
    assert_eq!(g.won[0], 1);
    // AH led: void in hearts, anything goes, and no suit trumps: AC loses.
    assert_eq!(legal_cards(&g, 0).len(), 8);
    act(&mut g, 0, "AC");
    assert_eq!(g.tricks[1].1, Player::Dummy);
    // KH led: BJ, played when unable to follow, beats everything.
    act(&mut g, 0, "BJ");
    assert_eq!(g.tricks[2].1, Player::Seat(seat(0)));
    play_out(&mut g);
    assert!(
        g.hand_results()[0]
            .summary
            .starts_with("trump BJ alone (LJ turned)")
    );
}

#[test]
fn o3_solitaire_the_dummy_leads_the_lone_joker_and_anything_follows() {
    let mut g = game(&["hands=1"]);
    deal(
        &mut g,
        &["AC KC QC JC TC AD KD QD JD"],
        "LJ AH KH QH JH TH AS KS QS BJ TD JS TS",
    );
    assert_lone_joker(&g, Card::LITTLE_JOKER);
    act(&mut g, 0, "null 1");
    assert_eq!(g.trick.cards(), [(Player::Dummy, Card::LITTLE_JOKER)]);
    // The whole hand may be played to the lone joker led; it wins.
    assert_eq!(legal_cards(&g, 0), g.hands[0]);
    act(&mut g, 0, "AC");
    assert_eq!(g.tricks[0].1, Player::Dummy);
}

#[test]
fn o3_multi_joker_turned() {
    let mut g = game(&["mode=multi", "players=2"]);
    deal(
        &mut g,
        &["AH KH QH JH TH 9H 8H AD KD", "LJ AC KC QC JC TC 9C 8C 8D"],
        "BJ QD JD TD 9D 8S 9S TS JS QS KS AS",
    );
    assert_lone_joker(&g, Card::LITTLE_JOKER);
    act(&mut g, 1, "bid 9");
    act(&mut g, 0, "null 1");
    // LJ led: seat 0 may play any card, and LJ wins.
    act(&mut g, 1, "LJ");
    assert_eq!(legal_cards(&g, 0), g.hands[0]);
    act(&mut g, 0, "AH");
    assert_eq!(g.tricks[0].1, Player::Seat(seat(1)));
    // A plain suit led still must be followed; hearts trump nothing.
    act(&mut g, 1, "8D");
    assert_eq!(legal_cards(&g, 0), cards("KD AD"));
    assert_eq!(
        g.check(seat(0), Action::Play(card("KH"))),
        Err(IllegalReason::MustFollow(Suit::Diamonds))
    );
    act(&mut g, 0, "AD");
    act(&mut g, 0, "KH");
    act(&mut g, 1, "AC");
    assert_eq!(g.tricks[2].1, Player::Seat(seat(0)), "AC does not trump");
}

#[test]
fn o3_coop_joker_turned() {
    let mut g = game(&["mode=coop", "players=3"]);
    deal(
        &mut g,
        &[
            "AS KS QS JS TS JD TD",
            "BJ AC KC QC JC TC AD",
            "AH KH QH JH TH KD QD",
        ],
        "LJ",
    );
    assert_lone_joker(&g, Card::BIG_JOKER);
    act(&mut g, 1, "bid 5");
    act(&mut g, 2, "bid 1");
    act(&mut g, 0, "bid 1");
    act(&mut g, 1, "BJ");
    assert_eq!(legal_cards(&g, 2), g.hands[2]);
    act(&mut g, 2, "AH");
    assert_eq!(legal_cards(&g, 0), g.hands[0]);
    act(&mut g, 0, "AS");
    assert_eq!(g.tricks[0].1, Player::Seat(seat(1)));
}

#[test]
fn o3_coop_dummy_joker_turned() {
    let mut g = game(&["mode=coop-dummy", "players=2"]);
    deal(
        &mut g,
        &["AH KH QH JH TH 9H 8H JD TD", "AC KC QC JC TC 9C 8C KD QD"],
        "BJ AS KS QS JS TS 9S 8S AD LJ 9D 8D",
    );
    assert_lone_joker(&g, Card::BIG_JOKER);
    act(&mut g, 1, "null 1");
    act(&mut g, 0, "null 1");
    assert_eq!(g.trick.cards(), [(Player::Dummy, Card::BIG_JOKER)]);
    assert_eq!(legal_cards(&g, 1), g.hands[1]);
    act(&mut g, 1, "AC");
    assert_eq!(legal_cards(&g, 0), g.hands[0]);
    act(&mut g, 0, "AH");
    assert_eq!(g.tricks[0].1, Player::Dummy);
}

#[test]
fn o4_solitaire_bids_and_the_hidden_dummy() {
    let mut g = solitaire(&[]);
    let mut expected: Vec<String> = (1..=9).map(|k| format!("bid {k}")).collect();
    expected.extend((1..=9).map(|r| format!("null {r}")));
    assert_eq!(legal(&g, 0), expected);
    let range = Err(IllegalReason::OutOfRange { min: 1, max: 9 });
    for bad in [
        Action::Bid(0),
        Action::Bid(10),
        Action::Null(0),
        Action::Null(10),
    ] {
        assert_eq!(g.check(seat(0), bad), range, "{bad}");
    }
    assert_eq!(
        g.check(seat(0), Action::Play(card("KH"))),
        Err(IllegalReason::WrongPhase)
    );
    // The player sees its own hand and the turn-up, never the dummy.
    let dummy = cards("BJ LJ AH KC JC KD JD KS JS");
    let o = g.observe(seat(0));
    assert_eq!(o.hand, cards(PLAYER));
    assert_eq!(g.seen_by(seat(0)), cards(PLAYER).or(cards("TH")));
    let text = format!("{o:?}");
    for c in dummy.or(cards("AC AD AS")) {
        assert!(!names(&text, c), "{c} shows: {text}");
    }
    act(&mut g, 0, "bid 5");
    // Play starts at once: the dummy's top card is turned and led.
    let o = g.observe(seat(0));
    assert_eq!(o.phase, Phase::Play);
    assert_eq!(o.trick.cards, [(Player::Dummy, Card::BIG_JOKER)]);
    assert_eq!(
        o.history.last(),
        Some(&Event::DummyPlay {
            card: Card::BIG_JOKER
        })
    );
    assert_eq!(o.me().bid, Some(Action::Bid(5)));
    assert_eq!(o.piles[0], ("dummy".to_string(), 8));
    assert_eq!(g.seen_by(seat(0)), cards(PLAYER).or(cards("TH BJ")));
    let text = format!("{o:?}");
    for c in dummy.minus(cards("BJ")) {
        assert!(!names(&text, c), "{c} shows: {text}");
    }
}

#[test]
fn o5_the_dummy_leads_every_trick_from_its_pile_in_deal_order() {
    let mut g = solitaire(&["hands=1"]);
    act(&mut g, 0, "bid 3");
    // BJ led asks for the trump suit: a heart.
    assert_eq!(legal_cards(&g, 0), cards("JH QH KH"));
    assert_eq!(
        g.check(seat(0), Action::Play(card("QC"))),
        Err(IllegalReason::MustFollow(Suit::Hearts))
    );
    for _ in 0..3 {
        let first = legal_cards(&g, 0).first().unwrap();
        g.apply(seat(0), Action::Play(first)).unwrap();
    }
    // KC led: the player must follow with a club.
    assert_eq!(legal_cards(&g, 0), cards("TC QC"));
    assert_eq!(
        g.check(seat(0), Action::Play(card("QD"))),
        Err(IllegalReason::MustFollow(Suit::Clubs))
    );
    play_solitaire(&mut g, &[C, D, S]);
    let pile = ["BJ", "LJ", "AH", "KC", "JC", "KD", "JD", "KS", "JS"];
    let winners: Vec<Player> = g.tricks.iter().map(|(_, w)| *w).collect();
    let (d, p) = (Player::Dummy, Player::Seat(seat(0)));
    // The player wins JC, JD and JS; the dummy leads the next trick anyway.
    assert_eq!(winners, [d, d, d, d, p, d, p, d, p]);
    for (i, (trick, _)) in g.tricks.iter().enumerate() {
        assert_eq!(
            trick.cards()[0],
            (Player::Dummy, card(pile[i])),
            "trick {i}"
        );
        assert_eq!(trick.len(), 2);
    }
    let r = &g.hand_results()[0];
    assert_eq!(r.tricks, [3]);
    assert_eq!(g.dummy_won, 6);
    assert_eq!(r.points, [3]);
    assert_eq!(r.made, [Some(true)]);
    assert_eq!(
        r.summary,
        "trump H; bids bid 3; tricks 3 (dummy 6); points +3"
    );
    let dummy_plays = g
        .core
        .log
        .iter()
        .filter(|e| matches!(e.event, Event::DummyPlay { .. }))
        .count();
    assert_eq!(dummy_plays, 9);
}

#[test]
fn o6_standard_scoring_by_hand() {
    let std = Scoring::Standard;
    assert_eq!(score(std, Action::Bid(3), 3), 3);
    assert_eq!(score(std, Action::Bid(2), 3), 1, "2 − (3 − 2)");
    assert_eq!(score(std, Action::Bid(1), 4), -2, "1 − (4 − 1)");
    assert_eq!(score(std, Action::Bid(5), 3), -5);
    assert_eq!(score(std, Action::Null(4), 0), 4);
    assert_eq!(score(std, Action::Null(4), 1), -4);
    // Whole solitaire hands of the deal above.
    for (bid, win, points) in [
        ("bid 3", &[C, D, S][..], 3),
        ("bid 2", &[C, D, S], 1),
        ("bid 5", &[C, D, S], -5),
        ("null 4", &[], 4),
        ("null 4", &[S], -4),
        ("bid 1", &[D], 1),
    ] {
        let g = solitaire_match(&["hands=1"], &[(bid, win)]);
        assert_eq!(g.hand_results()[0].points, [points], "{bid} {win:?}");
        assert_eq!(g.result().unwrap().totals, [points]);
    }
    // Multiplayer: seat 1 takes all seven tricks.
    let mut g = game(&["mode=multi", "players=3", "hands=1", "playoff-hands=0"]);
    deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
    act(&mut g, 1, "bid 5");
    act(&mut g, 2, "null 3");
    act(&mut g, 0, "bid 2");
    assert_eq!(
        g.to_act(),
        SeatSet::single(seat(1)),
        "O14: the highest bid leads"
    );
    play_out(&mut g);
    let r = &g.hand_results()[0];
    assert_eq!(r.tricks, [0, 7, 0]);
    assert_eq!(r.points, [-2, 3, 3], "missed 2; 5 − (7 − 5); null made");
    assert!(r.seat_points.is_empty(), "points are each seat's own");
    assert_eq!(r.made, [Some(false), Some(false), Some(true)]);
    assert_eq!(
        r.summary,
        "trump H; bids bid 2, bid 5, null 3; tricks 0 7 0; points -2 +3 +3"
    );
    // Tied on 3 with no play-off allowed: a shared win (O15).
    assert_eq!(g.result().unwrap().ranks, [3, 1, 1]);
}

#[test]
fn o7_doubling_the_maximum_once_per_hand() {
    // Off by default: the doubled bids are illegal, with the reason.
    let g = solitaire(&[]);
    assert_eq!(
        g.check(seat(0), Action::DoubleBid(9)),
        rule("O7", "doubling is not played (option `doubling`)")
    );
    let g = solitaire(&["doubling=true"]);
    let listed = legal(&g, 0);
    assert_eq!(listed.len(), 20);
    assert_eq!(listed[18..], ["bid 9 double", "null 9 double"]);
    assert_eq!(
        g.check(seat(0), Action::DoubleBid(8)),
        rule("O7", "only a bid of the maximum may be doubled")
    );
    assert_eq!(
        g.check(seat(0), Action::DoubleNull(3)),
        rule("O7", "only a null risking the maximum may be doubled")
    );
    // Made: +14; missed: −14 (a positive double needs exactly 9).
    let g = solitaire_match(
        &["doubling=true", "hands=2"],
        &[("null 9 double", &[]), ("bid 9 double", &[C, D, S])],
    );
    let points: Vec<i32> = g.hand_results().iter().map(|r| r.points[0]).collect();
    assert_eq!(points, [14, -14]);
    assert_eq!(score(Scoring::Standard, Action::DoubleNull(9), 1), -14);
    assert_eq!(score(Scoring::Alternative, Action::DoubleBid(9), 9), 14);

    // Multiplayer: first come, first served.
    let mut g = game(&["mode=multi", "players=2", "doubling=true", "hands=1"]);
    deal(&mut g, &[WEAK2, STRONG2], REST2);
    act(&mut g, 1, "bid 9 double");
    assert_eq!(g.observe(seat(0)).note("doubled"), Some("1"));
    let listed = legal(&g, 0);
    assert!(!listed.iter().any(|a| a.ends_with("double")), "{listed:?}");
    assert_eq!(
        g.check(seat(0), Action::DoubleNull(9)),
        rule("O7", "a bid has already been doubled this hand")
    );
    act(&mut g, 0, "null 9");
    play_out(&mut g);
    let r = &g.hand_results()[0];
    assert_eq!(r.tricks, [0, 9]);
    assert_eq!(r.points, [9, 14]);
}

#[test]
fn o8_alternative_scoring_and_beating_the_game() {
    assert_eq!(score(Scoring::Alternative, Action::Bid(1), 3), 0);
    assert_eq!(score(Scoring::Standard, Action::Bid(1), 3), -1);
    assert_eq!(score(Scoring::Alternative, Action::Bid(3), 3), 3);
    assert_eq!(score(Scoring::Alternative, Action::Bid(5), 3), -5);
    assert_eq!(score(Scoring::Alternative, Action::Null(2), 1), -2);
    let g = solitaire_match(
        &["scoring=alternative", "hands=2"],
        &[("bid 1", &[C, D, S]), ("null 2", &[C])],
    );
    let points: Vec<i32> = g.hand_results().iter().map(|r| r.points[0]).collect();
    assert_eq!(points, [0, -2]);
    assert_eq!(g.result().unwrap().note, "not beaten");
    assert_eq!(g.observe(seat(0)).note("verdict"), Some("not beaten"));
    let g = solitaire_match(
        &["scoring=alternative", "hands=1"],
        &[("bid 3", &[C, D, S])],
    );
    assert_eq!(g.result().unwrap().note, "beaten");
    assert_eq!(g.result().unwrap().totals, [3]);
    // Standard solitaire has no verdict beyond the total (O10).
    let g = solitaire_match(&["hands=1"], &[("bid 3", &[C, D, S])]);
    assert_eq!(g.result().unwrap().note, "");
    // Every mode: a multiplayer overtrick scores 0 too.
    let mut g = game(&["mode=multi", "players=3", "hands=1", "scoring=alternative"]);
    deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
    act(&mut g, 1, "bid 5");
    act(&mut g, 2, "null 3");
    act(&mut g, 0, "bid 2");
    play_out(&mut g);
    assert_eq!(g.hand_results()[0].points, [-2, 0, 3]);
}

#[test]
fn o9_edd_allard_win_draw_and_loss_against_thirty() {
    let edd = ["scoring=edd-allard"];
    assert_eq!(score(Scoring::EddAllard, Action::Null(0), 0), 10);
    assert_eq!(score(Scoring::EddAllard, Action::Null(0), 2), -12);
    assert_eq!(score(Scoring::EddAllard, Action::Bid(2), 3), 1);
    assert_eq!(score(Scoring::EddAllard, Action::Bid(4), 3), -4);
    // The null has no risk number.
    let g = solitaire(&edd);
    let mut expected: Vec<String> = (1..=9).map(|k| format!("bid {k}")).collect();
    expected.push("null".to_string());
    assert_eq!(legal(&g, 0), expected);
    assert_eq!(
        g.check(seat(0), Action::Null(3)),
        rule("O9", "an Edd Allard null has no risk number (`null`)")
    );
    // With doubling only the maximum positive bid can be doubled.
    let g = solitaire(&["scoring=edd-allard", "doubling=true"]);
    assert_eq!(
        legal(&g, 0).last().map(String::as_str),
        Some("bid 9 double")
    );
    assert_eq!(
        g.check(seat(0), Action::DoubleNull(9)),
        rule("O9", "an Edd Allard null has no risk number to double")
    );
    // Exactly nine deals, whatever `hands` says.
    assert_eq!(game(&["scoring=edd-allard", "hands=3"]).config().hands, 9);

    let null: (&str, &[Suit]) = ("null", &[]);
    let three: (&str, &[Suit]) = ("bid 3", &[C, D, S]);
    let zero: (&str, &[Suit]) = ("bid 1", &[C, D]); // 1 − (2 − 1) = 0
    let two: (&str, &[Suit]) = ("bid 2", &[C, D]);
    for (plan, total, verdict) in [
        // 3 × 10 + 6 × 0 = 30.
        (
            vec![null, null, null, zero, zero, zero, zero, zero, zero],
            30,
            "draw",
        ),
        // 2 × 10 + 3 × 3 + 4 × 0 = 29.
        (
            vec![null, null, three, three, three, zero, zero, zero, zero],
            29,
            "loss",
        ),
        // 2 × 10 + 3 × 3 + 2 + 3 × 0 = 31.
        (
            vec![null, null, three, three, three, two, zero, zero, zero],
            31,
            "win",
        ),
    ] {
        let g = solitaire_match(&edd, &plan);
        let result = g.result().expect("over after nine deals");
        assert_eq!(result.totals, [total]);
        assert_eq!(result.note, verdict);
        assert_eq!(result.hands, 9);
        assert_eq!(result.ranks, [1]);
        assert_eq!(g.observe(seat(0)).note("verdict"), Some(verdict));
    }
    // A broken Edd Allard null: −(10 + t).
    let g = solitaire_match(&edd[..], &[("null", &[C, D])]);
    assert_eq!(g.hand_results()[0].points, [-12]);
    assert!(Oneonta::new(&Options::parse(&["scoring=edd-allard", "mode=multi"]).unwrap()).is_err());
}

#[test]
fn o10_a_solitaire_match_is_hands_deals_and_its_total() {
    assert_eq!(game(&[]).config().hands, 9);
    let g = solitaire_match(
        &["hands=3"],
        &[("bid 3", &[C, D, S]), ("null 2", &[]), ("bid 4", &[C])],
    );
    assert_eq!(g.status(), Status::Over);
    let result = g.result().unwrap();
    assert_eq!(result.totals, [3 + 2 - 4]);
    assert_eq!(result.hands, 3);
    let totals: Vec<i32> = g.hand_results().iter().map(|r| r.totals[0]).collect();
    assert_eq!(totals, [3, 5, 1]);
    assert_eq!(g.dealer(), seat(0), "the player always deals");
}

#[test]
fn o11_o17_deck_sizes_for_every_player_count_and_mode() {
    // (mode, players, deck size, cards per seat, lowest rank)
    let table = [
        (Mode::Solitaire, 1, 22, 9, Rank::Ten),
        (Mode::Multi, 2, 30, 9, Rank::Eight),
        (Mode::Multi, 3, 22, 7, Rank::Ten),
        (Mode::Multi, 4, 30, 7, Rank::Eight),
        (Mode::Multi, 5, 38, 7, Rank::Six),
        (Mode::Multi, 6, 46, 7, Rank::Four),
        (Mode::Multi, 7, 54, 7, Rank::Two),
        (Mode::Coop, 2, 30, 9, Rank::Eight),
        (Mode::Coop, 3, 22, 7, Rank::Ten),
        (Mode::Coop, 4, 30, 7, Rank::Eight),
        (Mode::Coop, 5, 38, 7, Rank::Six),
        (Mode::Coop, 6, 46, 7, Rank::Four),
        (Mode::Coop, 7, 54, 7, Rank::Two),
        (Mode::CoopDummy, 2, 30, 9, Rank::Eight),
        (Mode::CoopDummy, 3, 30, 7, Rank::Eight),
        (Mode::CoopDummy, 4, 38, 7, Rank::Six),
        (Mode::CoopDummy, 5, 46, 7, Rank::Four),
        (Mode::CoopDummy, 6, 54, 7, Rank::Two),
    ];
    for (i, &(mode, players, size, per_seat, lowest)) in table.iter().enumerate() {
        let label = format!("{} {players}", mode.name());
        let (deck, h) = deck_for(mode, players);
        assert_eq!(deck.len(), size, "{label}");
        assert_eq!(h, per_seat, "{label}");
        assert_eq!(deck, decks::reduced(lowest), "{label}");
        assert!(deck.contains(Card::BIG_JOKER) && deck.contains(Card::LITTLE_JOKER));
        // The deck suffices: every hand (the dummy's too) and a turn-up,
        // hands × h + 1 cards, so hands × h < size.
        let hands = players + usize::from(mode.has_dummy());
        assert!(
            hands * usize::from(h) < size,
            "{label}: the deck is too small"
        );
        // A seeded deal gives each hand h cards and leaves the rest unseen.
        let mut g = game(&[
            &format!("mode={}", mode.name()),
            &format!("players={players}"),
        ]);
        assert_eq!(g.deck(), deck, "{label}");
        assert_eq!(g.seats(), players);
        deal_if_needed(&mut g, Seed::from_u64(i as u64)).unwrap();
        for s in 0..players {
            assert_eq!(g.hands[s].len(), h as usize, "{label}");
        }
        let o = g.observe(seat(0));
        let undealt = size - hands * h as usize - 1;
        assert_eq!(o.piles.last().unwrap().1 as usize, undealt, "{label}");
        if mode.has_dummy() {
            assert_eq!(g.dummy.len(), h as usize, "{label}");
            assert_eq!(o.piles[0], ("dummy".to_string(), h), "{label}");
        }
    }
    // The exact sizes the text's table would have given are too small
    // where RULES.md adds the 8s (O11: 4 players; O17: 3 players).
    assert!(decks::reduced(Rank::Nine).len() < 4 * 7 + 1);
    assert!(decks::reduced(Rank::Nine).len() < (3 + 1) * 7 + 1);
}

#[test]
fn o12_multiplayer_deal_goes_clockwise_from_the_dealers_left_then_turns_up() {
    let mut g = game(&["mode=multi", "players=4"]);
    let order = g.deck().to_vec();
    // 8C 9C TC JC QC KC AC 8D ... AS LJ BJ: seat 1 gets the 1st, 5th, ... card.
    g.deal(&order).unwrap();
    assert_eq!(g.hands[1], cards("8C QC 9D KD TH AH JS"));
    assert_eq!(g.hands[2], cards("9C KC TD AD JH 8S QS"));
    assert_eq!(g.hands[3], cards("TC AC JD 8H QH 9S KS"));
    assert_eq!(g.hands[0], cards("JC 8D QD 9H KH TS AS"));
    // The 29th card is turned (here LJ: BJ alone is trump, O3); one is left.
    assert_eq!(g.turn_up, Some(Card::LITTLE_JOKER));
    let o = g.observe(seat(2));
    assert_eq!(o.table[0].card, Card::LITTLE_JOKER);
    assert_eq!(o.piles, [("undealt".to_string(), 1)]);
    assert_eq!(o.trump, Trump::Jokers);
    assert_eq!(o.players.iter().map(|p| p.held).collect::<Vec<_>>(), [7; 4]);
    for (s, v) in o.players.iter().enumerate() {
        assert_eq!(v.known.is_empty(), s != 2);
    }
    // The next hand is dealt by seat 1, starting with seat 2.
    for s in [1, 2, 3, 0] {
        act(&mut g, s, "bid 1");
    }
    play_out(&mut g);
    assert_eq!(g.dealer(), seat(1));
    g.deal(&order).unwrap();
    assert_eq!(g.hands[2], cards("8C QC 9D KD TH AH JS"));
}

/// A 4-player multi game with hand 1 bid as given and played out.
fn four_after_hand_one(bids: [&str; 4]) -> Oneonta {
    let mut g = game(&["mode=multi", "players=4"]);
    let order = g.deck().to_vec();
    g.deal(&order).unwrap();
    assert_eq!(
        g.to_act(),
        SeatSet::single(seat(1)),
        "O13: dealer's left first"
    );
    for (s, bid) in [1, 2, 3, 0].into_iter().zip(bids) {
        act(&mut g, s, bid);
    }
    play_out(&mut g);
    assert_eq!(g.dealer(), seat(1));
    g
}

/// Who bids first in the next hand when the totals are `totals`.
fn first_bidder_with(g: &Oneonta, totals: [i32; 4]) -> usize {
    let mut g = g.clone();
    g.totals[..4].copy_from_slice(&totals);
    let order = g.deck().to_vec();
    g.deal(&order).unwrap();
    assert_eq!(
        g.observe(seat(0)).note("first-bidder"),
        Some(g.turn.to_string().as_str())
    );
    g.to_act().first().unwrap().index()
}

#[test]
fn o13_first_bidder_highest_positive_bid_then_total_then_dealer() {
    // Seats 2 and 0 bid 5, the highest positive bid; seat 1 deals next.
    let g = four_after_hand_one(["bid 3", "bid 5", "null 2", "bid 5"]);
    assert_eq!(first_bidder_with(&g, [4, 0, 10, 0]), 2, "higher total");
    assert_eq!(first_bidder_with(&g, [10, 0, 4, 0]), 0, "higher total");
    // Equal totals: the first of them clockwise from the dealer (1).
    assert_eq!(first_bidder_with(&g, [4, 9, 4, 9]), 2);
    // One highest positive bid decides alone, whatever the totals.
    let g = four_after_hand_one(["bid 3", "bid 6", "null 7", "bid 5"]);
    assert_eq!(first_bidder_with(&g, [50, 0, 0, 50]), 2);
    // No positive bid: every seat ties; totals, then the dealer itself.
    let g = four_after_hand_one(["null 1", "null 2", "null 3", "null 4"]);
    assert_eq!(first_bidder_with(&g, [0, 3, 3, 1]), 1, "the dealer");
    assert_eq!(first_bidder_with(&g, [3, 0, 0, 3]), 3);
    assert_eq!(first_bidder_with(&g, [0, 0, 0, 0]), 1);
    // Bids are public, in every seat's observation.
    let o = g.observe(seat(3));
    assert_eq!(o.players[1].bid, Some(Action::Null(1)));
    assert_eq!(o.players[0].bid, Some(Action::Null(4)));
}

#[test]
fn o14_the_highest_positive_bid_leads_then_total_then_dealer() {
    let leader = |bids: [&str; 4], totals: [i32; 4]| {
        let mut g = game(&["mode=multi", "players=4"]);
        g.totals[..4].copy_from_slice(&totals);
        let order = g.deck().to_vec();
        g.deal(&order).unwrap();
        for (s, bid) in [1, 2, 3, 0].into_iter().zip(bids) {
            act(&mut g, s, bid);
        }
        assert_eq!(g.stage, Stage::Play);
        g.to_act().first().unwrap().index()
    };
    let bids = ["bid 3", "bid 5", "null 2", "bid 5"];
    assert_eq!(leader(bids, [0; 4]), 0, "tie 2/0: the dealer");
    assert_eq!(leader(bids, [0, 0, 6, 0]), 2, "tie 2/0: the higher total");
    assert_eq!(
        leader(["bid 3", "bid 2", "bid 7", "null 5"], [9, 9, 0, 9]),
        3
    );
    let nulls = ["null 1", "null 2", "null 3", "null 4"];
    assert_eq!(leader(nulls, [0; 4]), 0, "all null: the dealer");
    assert_eq!(
        leader(nulls, [0, 1, 2, 2]),
        2,
        "all null: total, then clockwise"
    );
}

#[test]
fn o14_the_winner_leads_or_with_lead_fixed_the_first_leader() {
    for (options, next) in [(&["lead=winner-leads"][..], 1), (&["lead=fixed"], 0)] {
        let mut g = game(&[&["mode=multi", "players=2"][..], options].concat());
        deal(&mut g, &[WEAK2, STRONG2], REST2);
        act(&mut g, 1, "null 9");
        act(&mut g, 0, "bid 2");
        assert_eq!(g.to_act(), SeatSet::single(seat(0)));
        act(&mut g, 0, "8C");
        act(&mut g, 1, "9H");
        assert_eq!(g.tricks[0].1, Player::Seat(seat(1)), "a trump wins");
        assert_eq!(g.to_act(), SeatSet::single(seat(next)), "{options:?}");
        assert_eq!(
            g.observe(seat(0)).note("lead"),
            Some(options[0].split('=').nth(1).unwrap())
        );
    }
}

#[test]
fn o15_match_length_is_the_cards_per_seat() {
    for (players, hands) in [(2, 9), (3, 7), (4, 7), (7, 7)] {
        let g = game(&["mode=multi", &format!("players={players}")]);
        assert_eq!(g.config().hands, hands);
    }
    assert_eq!(game(&["mode=multi"]).config().players, 4);
    assert_eq!(game(&["mode=coop"]).config().hands, 9);
    assert_eq!(game(&["mode=coop-dummy"]).config().players, 3);
}

/// Three players, one regular hand: seat 1 takes all seven tricks; seats
/// 1 and 2 tie on 7, seat 0 has −1.
fn tied_after_one_hand(options: &[&str]) -> Oneonta {
    let mut g = game(&[&["mode=multi", "players=3", "hands=1"][..], options].concat());
    deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
    act(&mut g, 1, "bid 7");
    act(&mut g, 2, "null 7");
    act(&mut g, 0, "bid 1");
    play_out(&mut g);
    assert_eq!(g.totals[..3], [-1, 7, 7]);
    g
}

/// A play-off hand between seats 1 and 2 in which seat 1 takes all nine.
fn playoff_hand(g: &mut Oneonta, bids: [&str; 2]) {
    assert_eq!(g.status(), Status::Deal);
    assert_eq!(
        g.deck(),
        decks::reduced(Rank::Eight),
        "O15: the 2-player deck"
    );
    deal(g, &["", STRONG2, WEAK2], REST2);
    let o = g.observe(seat(0));
    assert!(!o.players[0].active);
    assert!(o.players[1].active && o.players[2].active);
    assert_eq!(o.players[0].held, 0);
    assert_eq!(o.note("playoff"), Some("true"));
    assert_eq!(g.hands[1].len(), 9);
    // O13 among the tied seats: seat 1 had the highest positive bid.
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    act(g, 1, bids[0]);
    act(g, 2, bids[1]);
    while g.stage == Stage::Play {
        assert!(
            !g.to_act().contains(seat(0)),
            "a seat sitting out never acts"
        );
        assert!(g.legal_actions(seat(0)).is_empty());
        let s = g.to_act().first().unwrap();
        let a = g.legal_actions(s)[0];
        g.apply(s, a).unwrap();
    }
    let r = g.hand_results().last().unwrap();
    assert_eq!(r.bids[0], None);
    assert_eq!(r.points[0], 0);
    assert_eq!(r.tricks, [0, 9, 0]);
    assert!(r.summary.starts_with("play-off: "), "{}", r.summary);
}

#[test]
fn o15_tied_leaders_play_off_and_still_tied_share_the_win() {
    let mut g = tied_after_one_hand(&["playoff-hands=1"]);
    // The play-off is dealt by the first tied seat left of the last dealer (0).
    assert_eq!(g.dealer(), seat(1));
    assert_eq!(g.active, cards_seats(&[1, 2]));
    playoff_hand(&mut g, ["bid 9", "null 9"]);
    // 16 and 16, and no more play-off hands: a shared win.
    let result = g.result().expect("over");
    assert_eq!(result.totals, [-1, 16, 16]);
    assert_eq!(result.ranks, [3, 1, 1]);
    assert_eq!(result.winners(), [seat(1), seat(2)]);
    assert_eq!(result.hands, 2);
}

fn cards_seats(seats: &[usize]) -> SeatSet {
    seats.iter().map(|&s| seat(s)).collect()
}

#[test]
fn o15_the_play_off_goes_on_until_one_leads_with_rotating_deals() {
    let mut g = tied_after_one_hand(&[]);
    playoff_hand(&mut g, ["bid 9", "null 9"]);
    assert_eq!(g.totals[..3], [-1, 16, 16]);
    // Still tied: another play-off hand, dealt by the next tied seat.
    assert_eq!(g.dealer(), seat(2));
    assert_eq!(g.status(), Status::Deal);
    playoff_hand(&mut g, ["bid 9", "null 1"]);
    let result = g.result().expect("over: seat 1 leads");
    assert_eq!(result.totals, [-1, 25, 17]);
    assert_eq!(result.ranks, [3, 1, 2]);
    assert_eq!(result.hands, 3);
    assert_eq!(g.observe(seat(0)).note("playoff-hands-played"), Some("2"));
    // Without a tie there is no play-off.
    let mut g = game(&["mode=multi", "players=3", "hands=1"]);
    deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
    act(&mut g, 1, "bid 7");
    act(&mut g, 2, "null 6");
    act(&mut g, 0, "bid 1");
    play_out(&mut g);
    assert_eq!(g.result().unwrap().ranks, [3, 1, 2]);
}

#[test]
fn o16_cooperative_legal_bids_total_exactly_the_hand_size() {
    let mut g = game(&["mode=coop", "players=3"]);
    deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    let everything: Vec<String> = (1..=7)
        .map(|k| format!("bid {k}"))
        .chain((1..=7).map(|r| format!("null {r}")))
        .collect();
    assert_eq!(legal(&g, 1), everything);
    act(&mut g, 1, "bid 5");
    // 5 so far and one seat after this one: at most 2 more.
    let mut expected = vec!["bid 1".to_string(), "bid 2".to_string()];
    expected.extend((1..=7).map(|r| format!("null {r}")));
    assert_eq!(legal(&g, 2), expected);
    assert_eq!(
        g.check(seat(2), Action::Bid(3)),
        rule("O16", "the bids must total exactly the hand size")
    );
    act(&mut g, 2, "null 3");
    // The last bid must make exactly 7.
    assert_eq!(legal(&g, 0), ["bid 2"]);
    assert_eq!(g.observe(seat(0)).note("bid-limit"), Some("exactly 7"));
    assert_eq!(g.observe(seat(0)).note("bids-total"), Some("5"));

    // Two nulls first: the last seat must bid all seven.
    let mut g = game(&["mode=coop", "players=3", "doubling=true"]);
    deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
    act(&mut g, 1, "null 1");
    act(&mut g, 2, "null 7 double");
    assert_eq!(legal(&g, 0), ["bid 7"], "the double was taken");
    // Four players, a bid of all seven first: only nulls follow.
    let mut g = game(&["mode=coop", "players=4"]);
    let order = g.deck().to_vec();
    g.deal(&order).unwrap();
    act(&mut g, 1, "bid 7");
    for s in [2, 3, 0] {
        let nulls: Vec<String> = (1..=7).map(|r| format!("null {r}")).collect();
        assert_eq!(legal(&g, s), nulls);
        act(&mut g, s, "null 1");
    }
    assert_eq!(g.stage, Stage::Play);
}

#[test]
fn o16_cooperative_lead_team_score_and_one_team() {
    for (options, team) in [(&[][..], 1), (&["team-score=lowest"], -1)] {
        let mut g = game(&[&["mode=coop", "players=3", "hands=1"][..], options].concat());
        assert_eq!(g.teams(), [0, 0, 0]);
        deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
        act(&mut g, 1, "bid 5");
        act(&mut g, 2, "bid 1");
        act(&mut g, 0, "bid 1");
        assert_eq!(
            g.to_act(),
            SeatSet::single(seat(1)),
            "the highest bid leads"
        );
        play_out(&mut g);
        // Seat 1: 5 − (7 − 5) = 3; seats 2 and 0 missed 1: −1 each.
        let r = &g.hand_results()[0];
        assert_eq!(r.tricks, [0, 7, 0]);
        assert_eq!(r.made, [Some(false); 3]);
        assert_eq!(
            r.points, [team; 3],
            "{options:?}: every seat carries the team's"
        );
        assert_eq!(r.totals, [team; 3]);
        // O16: each seat's own O6 score is reported beside the team's.
        assert_eq!(r.seat_points, [-1, 3, -1]);
        assert!(
            r.summary.ends_with(&format!("; team {team:+}")),
            "{}",
            r.summary
        );
        let result = g.result().unwrap();
        assert_eq!(result.ranks, [1, 1, 1]);
        assert_eq!(result.teams, [0, 0, 0]);
        assert_eq!(result.note, "");
        assert_eq!(g.observe(seat(2)).players[1].team, 0);
    }
    // Tied highest bids: the dealer or the first clockwise from it.
    let mut g = game(&["mode=coop", "players=3"]);
    deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
    act(&mut g, 1, "bid 3");
    act(&mut g, 2, "bid 3");
    act(&mut g, 0, "bid 1");
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    // Every hand is bid first by the dealer's left, whatever the bids before.
    play_out(&mut g);
    deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
    assert_eq!(g.dealer(), seat(1));
    assert_eq!(g.to_act(), SeatSet::single(seat(2)));
}

#[test]
fn o17_the_dummy_is_dealt_first_in_each_round_and_leads_every_trick() {
    let mut g = game(&["mode=coop-dummy", "players=2", "hands=1"]);
    let order = g.deck().to_vec();
    g.deal(&order).unwrap();
    // Rounds of three: the dummy, then seat 1, then seat 0 (the dealer).
    assert_eq!(
        g.dummy.as_slice(),
        cards("8C JC AC TD KD 9H QH 8S JS").to_vec().as_slice()
    );
    assert_eq!(g.hands[1], cards("9C QC 8D JD AD TH KH 9S QS"));
    assert_eq!(g.hands[0], cards("TC KC 9D QD 8H JH AH TS KS"));
    assert_eq!(g.turn_up, Some(card("AS")));
    let o = g.observe(seat(0));
    assert_eq!(
        o.piles,
        [("dummy".to_string(), 9), ("undealt".to_string(), 2)]
    );
    assert_eq!(
        g.to_act(),
        SeatSet::single(seat(1)),
        "bidding from the dealer's left"
    );
    act(&mut g, 1, "bid 6");
    // At most 9 in all.
    let mut expected: Vec<String> = (1..=3).map(|k| format!("bid {k}")).collect();
    expected.extend((1..=9).map(|r| format!("null {r}")));
    assert_eq!(legal(&g, 0), expected);
    assert_eq!(
        g.check(seat(0), Action::Bid(4)),
        rule("O17", "the bids may total at most the hand size")
    );
    act(&mut g, 0, "null 2");
    // The dummy leads 8C; seat 1 then seat 0 follow.
    assert_eq!(g.trick.cards(), [(Player::Dummy, card("8C"))]);
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    act(&mut g, 1, "9C");
    act(&mut g, 0, "TC");
    assert_eq!(g.tricks[0].1, Player::Seat(seat(0)));
    // The dummy leads again, though seat 0 won.
    assert_eq!(g.trick.cards(), [(Player::Dummy, card("JC"))]);
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    play_out(&mut g);
    let pile = cards("8C JC AC TD KD 9H QH 8S JS");
    for (i, (trick, _)) in g.tricks.iter().enumerate() {
        assert_eq!(trick.cards()[0], (Player::Dummy, g.dummy[i]));
        assert!(pile.contains(g.dummy[i]));
        assert_eq!(trick.len(), 3);
    }
    let r = &g.hand_results()[0];
    let seats_won: u8 = r.tricks.iter().sum();
    assert_eq!(seats_won + g.dummy_won, 9);
}

#[test]
fn o17_dummy_tricks_score_for_nobody_and_beating_the_game() {
    // The dummy holds every trump and AS: it takes all nine tricks.
    for (options, team, verdict) in [
        (&[][..], 2, "beaten"),
        (&["team-score=lowest"], -2, "not beaten"),
    ] {
        let mut g = game(&[&["mode=coop-dummy", "players=2", "hands=1"][..], options].concat());
        deal(
            &mut g,
            &["TD JD QD KD AD 8S 9S TS JS", "8C 9C TC JC QC KC AC 8D 9D"],
            "BJ LJ AH KH QH JH TH 9H AS 8H QS KS",
        );
        act(&mut g, 1, "null 4");
        act(&mut g, 0, "bid 2");
        play_out(&mut g);
        assert_eq!(g.dummy_won, 9);
        assert_eq!(g.observe(seat(0)).note("dummy-tricks"), Some("9"));
        let r = &g.hand_results()[0];
        // Seat 1's null made (+4), seat 0's bid 2 missed (−2).
        assert_eq!(r.tricks, [0, 0]);
        assert_eq!(r.made, [Some(false), Some(true)]);
        assert_eq!(r.points, [team, team]);
        // O17: each seat's own O6 score beside the team's.
        assert_eq!(r.seat_points, [-2, 4]);
        assert_eq!(
            r.summary,
            format!("trump H; bids bid 2, null 4; tricks 0 0 (dummy 9); team {team:+}")
        );
        let result = g.result().unwrap();
        assert_eq!(result.note, verdict, "{options:?}");
        assert_eq!(result.totals, [team, team]);
    }
}

#[test]
fn options_resolve_round_trip_and_refuse_bad_values() {
    assert_eq!(
        game(&[]).options().to_string(),
        "doubling=false hands=9 lead=winner-leads mode=solitaire players=1 playoff-hands=3 \
         scoring=standard team-score=sum"
    );
    for given in [
        &[][..],
        &["mode=multi"],
        &["mode=multi", "players=2", "lead=fixed", "playoff-hands=0"],
        &[
            "mode=coop",
            "players=7",
            "team-score=lowest",
            "doubling=true",
        ],
        &[
            "mode=coop-dummy",
            "players=6",
            "hands=2",
            "scoring=alternative",
        ],
        &["scoring=edd-allard", "hands=4"],
    ] {
        let g = game(given);
        let again = Oneonta::new(&g.options()).unwrap();
        assert_eq!(again.config(), g.config(), "{given:?}");
    }
    for bad in [
        &["players=2"][..],
        &["mode=multi", "players=1"],
        &["mode=multi", "players=8"],
        &["mode=coop", "players=8"],
        &["mode=coop-dummy", "players=7"],
        &["mode=multi", "scoring=edd-allard"],
        &["mode=coop-dummy", "scoring=edd-allard"],
        &["mode=duo"],
        &["players=x"],
        &["hands=0"],
        &["hands=unset"],
        &["lead=left"],
        &["team-score=mean"],
        &["playoff-hands=101"],
        &["doubling=yes"],
        &["colour=red"],
    ] {
        assert!(
            Oneonta::new(&Options::parse(bad).unwrap()).is_err(),
            "{bad:?}"
        );
    }
}

#[test]
fn illegal_actions_have_precise_reasons() {
    let mut g = solitaire(&[]);
    assert!(g.parse_action("pass").is_err(), "not in the vocabulary");
    assert!(g.parse_action("bid 7D").is_err());
    act(&mut g, 0, "bid 2");
    assert_eq!(
        g.check(seat(0), Action::Bid(3)),
        Err(IllegalReason::WrongPhase)
    );
    assert_eq!(
        g.check(seat(0), Action::Play(card("AS"))),
        Err(IllegalReason::NotInHand(card("AS")))
    );
}

fn random_match(options: &[&str], seed: u64) -> Oneonta {
    let mut g = game(options);
    let seed = Seed::from_u64(seed);
    let mut rng = Shuffler::new(seed);
    let log_buffer = g.core.log.as_ptr();
    while !g.is_over() {
        if deal_if_needed(&mut g, seed).unwrap() {
            continue;
        }
        let s = g.to_act().first().unwrap();
        let legal = g.legal_actions(s);
        let a = legal[rng.below(legal.len() as u32) as usize];
        g.apply(s, a).unwrap();
    }
    // The log never reallocated: one buffer for every hand.
    assert_eq!(g.core.log.as_ptr(), log_buffer, "{options:?}");
    g
}

#[test]
fn random_matches_end_and_add_up_in_every_mode() {
    let sets: [&[&str]; 8] = [
        &[],
        &["scoring=edd-allard", "doubling=true"],
        &["mode=multi", "players=7", "doubling=true"],
        &["mode=multi", "players=2", "hands=1", "playoff-hands=5"],
        &["mode=coop", "players=7"],
        &[
            "mode=coop",
            "players=2",
            "team-score=lowest",
            "doubling=true",
        ],
        &["mode=coop-dummy", "players=6"],
        &["mode=coop-dummy", "players=2", "doubling=true"],
    ];
    for (n, options) in sets.iter().enumerate() {
        for seed in 0..6 {
            let g = random_match(options, n as u64 * 100 + seed);
            let cfg = g.config();
            let results = g.hand_results();
            let playoff = results
                .iter()
                .filter(|r| r.summary.starts_with("play-off"))
                .count();
            assert_eq!(results.len(), cfg.hands as usize + playoff, "{options:?}");
            for r in results {
                // Without a dummy every trick goes to a seat; with one,
                // the dummy's tricks go to nobody.
                let players = r.bids.iter().filter(|b| b.is_some()).count();
                let size = deck_for(cfg.mode, players).1;
                let tricks: u8 = r.tricks.iter().sum();
                if cfg.mode.has_dummy() {
                    assert!(tricks <= size, "{options:?}");
                } else {
                    assert_eq!(tricks, size, "{options:?}");
                }
                if cfg.mode.cooperative() {
                    assert!(r.points.iter().all(|&p| p == r.points[0]));
                }
                if cfg.mode == Mode::Coop {
                    let total: u8 = r.bids.iter().map(|&b| bid_value(b)).sum();
                    assert_eq!(total, deck_for(cfg.mode, cfg.players as usize).1);
                }
            }
            let result = g.result().unwrap();
            assert_eq!(result.totals, results.last().unwrap().totals);
        }
    }
}

#[test]
fn registered_as_a_variant() {
    let mut g = Variant::Oneonta.new_game(&Options::new()).unwrap();
    assert_eq!("oneonta".parse::<Variant>().unwrap(), Variant::Oneonta);
    assert_eq!(Variant::Oneonta.name(), "oneonta");
    assert_eq!(g.seats(), 1);
    assert_eq!(g.deck().len(), 22);
    deal_if_needed(&mut g, Seed::from_u64(3)).unwrap();
    assert_eq!(g.observe(seat(0)).game, Variant::Oneonta);
    assert_eq!(g.legal_actions(seat(0)).len(), 18);
}
