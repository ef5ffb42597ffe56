//! The hand line as the runner writes it, read in one pass over its bytes.
//!
//! Nearly all of a log is its hand lines, and nearly all of a hand line is
//! its deck and its actions, written by one serializer in one layout:
//! `{"type":"hand","prev":"…","deal":3,"dealer":1,"deck":["AS",…],
//! "actions":[{"seat":1,"action":"bid 7D","ms":0.412},…],…,"result":{…}}`.
//! [`hand`] reads exactly that layout, field by field, without serde's
//! machinery for the deck and the actions (the less regular `faults`,
//! `result` and `context` go through serde, each from its own part of the
//! line). A card's canonical text (and a card played, an action whose text
//! is a card's) comes from a table of the 54 texts, which gives what
//! `FromStr` gives (tested for every card); any other card or action text
//! goes through the same `FromStr` as their `Deserialize`. So a line it
//! reads gives the values serde would; a line it does not recognise as it
//! goes (another key order, white space, an escape in a string, a number
//! out of range) is left to the general parser, which reads any valid line
//! and says what is wrong with the others.

use std::{borrow::Cow, sync::OnceLock};

use serde::Deserialize;
use whistle_rules::{Action, Card, HandContext, HandResult, MAX_SEATS, Seat};

use super::{ActionIn, CardsIn, HandIn};
use crate::FaultLog;

/// `line` as a runner-written hand line, or `None` if it is not exactly in
/// the runner's layout (the general parser then reads it).
pub(super) fn hand(line: &str) -> Option<HandIn<'_>> {
    let mut s = Scan { rest: line };
    s.lit(r#"{"type":"hand","prev":""#)?;
    let prev = s.string()?;
    s.lit(r#","deal":"#)?;
    let deal = s.u32()?;
    s.lit(r#","dealer":"#)?;
    let dealer = s.seat()?;
    s.lit(r#","deck":["#)?;
    let mut deck = Vec::with_capacity(64);
    if !s.eat("]") {
        loop {
            s.lit("\"")?;
            deck.push(card(s.string()?)?);
            if s.eat("]") {
                break;
            }
            s.lit(",")?;
        }
    }
    s.lit(r#","actions":["#)?;
    let mut actions = Vec::with_capacity(80);
    if !s.eat("]") {
        loop {
            s.lit(r#"{"seat":"#)?;
            let seat = s.seat()?;
            s.lit(r#","action":""#)?;
            let action = action(s.string()?)?;
            s.lit(r#","ms":"#)?;
            s.number()?;
            let fallback = if s.eat(r#","fallback":"#) {
                s.bool()?
            } else {
                false
            };
            s.lit("}")?;
            actions.push(ActionIn::Full {
                seat,
                action,
                fallback,
            });
            if s.eat("]") {
                break;
            }
            s.lit(",")?;
        }
    }
    let faults = if s.eat(r#","faults":"#) {
        s.serde::<Vec<FaultLog>>()?
    } else {
        Vec::new()
    };
    s.lit(r#","result":"#)?;
    let result = s.serde::<HandResult>()?;
    let context = if s.eat(r#","context":"#) {
        s.serde::<Option<HandContext>>()?
    } else {
        None
    };
    s.lit("}")?;
    s.rest.is_empty().then_some(HandIn {
        prev: Some(Cow::Borrowed(prev)),
        deal: Some(deal),
        dealer: Some(dealer),
        deck: Some(CardsIn::List(deck)),
        hands: None,
        rest: None,
        actions,
        faults,
        result: Some(result),
        context,
    })
}

/// A card from its text: a canonical text (`AS`, `TC`, `BJ`, what the
/// runner writes) from a table of them; any other by `FromStr`, as serde
/// reads it.
fn card(text: &str) -> Option<Card> {
    canonical_card(text).or_else(|| text.parse().ok())
}

/// An action from its text: a card's canonical text is that card played,
/// as `FromStr` reads it (checked for every card in the tests); any other
/// text by `FromStr`, as serde reads it.
fn action(text: &str) -> Option<Action> {
    canonical_card(text)
        .map(Action::Play)
        .or_else(|| text.parse().ok())
}

/// The card whose canonical text is `text`, if any.
fn canonical_card(text: &str) -> Option<Card> {
    /// Each card's index at its text's two bytes (ASCII); 0xFF where no
    /// card's text is.
    static CARDS: OnceLock<[[u8; 128]; 128]> = OnceLock::new();
    let &[a, b] = text.as_bytes() else {
        return None;
    };
    let table = CARDS.get_or_init(|| {
        let mut t = [[0xFF; 128]; 128];
        for c in (0..Card::COUNT).filter_map(Card::from_index) {
            if let &[x, y] = c.text().as_bytes()
                && let Some(at) = t
                    .get_mut(usize::from(x))
                    .and_then(|r| r.get_mut(usize::from(y)))
            {
                *at = c.index() as u8;
            }
        }
        t
    });
    let i = *table.get(usize::from(a))?.get(usize::from(b))?;
    Card::from_index(usize::from(i))
}

/// What is left of a line to read.
struct Scan<'a> {
    rest: &'a str,
}

impl<'a> Scan<'a> {
    /// Whether the rest starts with `text`, which is then passed.
    fn eat(&mut self, text: &str) -> bool {
        match self.rest.strip_prefix(text) {
            Some(r) => {
                self.rest = r;
                true
            }
            None => false,
        }
    }

    /// `text`, which must come next.
    fn lit(&mut self, text: &str) -> Option<()> {
        self.eat(text).then_some(())
    }

    /// The rest of a string whose opening quote is passed: its text, up to
    /// the closing quote (passed too). A string with an escape or a
    /// control character is not read here.
    fn string(&mut self) -> Option<&'a str> {
        let bytes = self.rest.as_bytes();
        let end = bytes
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        if bytes[end] != b'"' {
            return None;
        }
        let text = &self.rest[..end];
        self.rest = &self.rest[end + 1..];
        Some(text)
    }

    /// The digits of an unsigned integer, as JSON writes one (no leading
    /// zero, no sign, no fraction).
    fn digits(&mut self) -> Option<&'a str> {
        let n = self.rest.bytes().take_while(u8::is_ascii_digit).count();
        let digits = &self.rest[..n];
        if n == 0 || (n > 1 && digits.starts_with('0')) {
            return None;
        }
        self.rest = &self.rest[n..];
        Some(digits)
    }

    fn u32(&mut self) -> Option<u32> {
        self.digits()?.parse().ok()
    }

    /// A seat number (in range, as `Seat`'s `Deserialize` requires).
    fn seat(&mut self) -> Option<Seat> {
        let n: usize = self.digits()?.parse().ok()?;
        (n < MAX_SEATS).then(|| Seat::new(n))
    }

    fn bool(&mut self) -> Option<bool> {
        if self.eat("true") {
            Some(true)
        } else if self.eat("false") {
            Some(false)
        } else {
            None
        }
    }

    /// A JSON number, passed over (`-`, an integer part, then an optional
    /// fraction and exponent).
    fn number(&mut self) -> Option<()> {
        self.eat("-");
        if !self.eat("0") {
            self.digits()?;
        }
        if self.eat(".") {
            self.all_digits()?;
        }
        if self.eat("e") || self.eat("E") {
            if !self.eat("+") {
                self.eat("-");
            }
            self.all_digits()?;
        }
        Some(())
    }

    /// One digit or more (leading zeros allowed, as after a point).
    fn all_digits(&mut self) -> Option<()> {
        let n = self.rest.bytes().take_while(u8::is_ascii_digit).count();
        self.rest = &self.rest[n..];
        (n > 0).then_some(())
    }

    /// One JSON value read by serde as a `T`, from where the rest starts.
    fn serde<T: Deserialize<'a>>(&mut self) -> Option<T> {
        let mut values = serde_json::Deserializer::from_str(self.rest).into_iter::<T>();
        let value = values.next()?.ok()?;
        self.rest = &self.rest[values.byte_offset()..];
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A card's canonical text reads as `FromStr` reads it, as a card and
    /// as an action (that card played); other texts are left to `FromStr`.
    #[test]
    fn canonical_card_texts_read_as_from_str_reads_them() {
        for i in 0..Card::COUNT {
            let c = Card::from_index(i).unwrap();
            assert_eq!(canonical_card(c.text()), Some(c));
            assert_eq!(card(c.text()), Some(c.text().parse().unwrap()));
            assert_eq!(action(c.text()), Some(c.text().parse().unwrap()));
        }
        for text in ["as", "10H", "1", "", "ASS", "pass", "bid 7D", "é"] {
            assert_eq!(canonical_card(text), None, "{text}");
            assert_eq!(card(text), text.parse().ok(), "{text}");
            assert_eq!(action(text), text.parse().ok(), "{text}");
        }
    }
}
