//! Game options: `key=value` pairs, each game's specification of them, and a
//! reader that turns them into a typed config with clear errors.

use std::{collections::BTreeMap, fmt};

use crate::error::OptionError;

/// One option a game accepts, as listed by `whistle games`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionSpec {
    /// The key, e.g. `target`.
    pub key: &'static str,
    /// The default value as text (`unset` for an option that is off by default).
    pub default: &'static str,
    /// The allowed values, e.g. `1..=10000` or `S|H|D|C|NT`.
    pub values: &'static str,
    /// One line of documentation, citing the decision id.
    pub doc: &'static str,
}

/// Option values as given: an ordered map from key to value text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Options(BTreeMap<String, String>);

impl Options {
    /// No options: every game's defaults.
    pub fn new() -> Options {
        Options::default()
    }

    /// Parses `key=value` strings.
    ///
    /// # Errors
    /// [`OptionError::Malformed`] for a string without `=` or with an empty key.
    pub fn parse<S: AsRef<str>>(pairs: &[S]) -> Result<Options, OptionError> {
        let mut out = Options::new();
        for p in pairs {
            let p = p.as_ref();
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| OptionError::Malformed(p.to_string()))?;
            if k.trim().is_empty() {
                return Err(OptionError::Malformed(p.to_string()));
            }
            out.set(k.trim(), v.trim());
        }
        Ok(out)
    }

    /// Sets `key` to `value`.
    pub fn set(&mut self, key: &str, value: &str) {
        self.0.insert(key.to_string(), value.to_string());
    }

    /// Sets `key` to `if_true` or `if_false` (an option with two named
    /// values).
    pub fn set_either(&mut self, key: &str, value: bool, if_true: &str, if_false: &str) {
        self.set(key, if value { if_true } else { if_false });
    }

    /// The value for `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }

    /// All pairs, sorted by key.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Whether no option is given.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Options {
    /// `key=value` pairs separated by spaces, sorted by key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (k, v)) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}

/// Reads options against a game's [`OptionSpec`]s: unknown keys are errors,
/// missing keys take their defaults.
#[derive(Debug)]
pub struct OptionReader<'a> {
    game: &'static str,
    specs: &'static [OptionSpec],
    given: &'a Options,
}

impl<'a> OptionReader<'a> {
    /// Checks every given key against `specs`.
    ///
    /// # Errors
    /// [`OptionError::UnknownOption`] for a key the game does not have.
    pub fn new(
        game: &'static str,
        specs: &'static [OptionSpec],
        given: &'a Options,
    ) -> Result<OptionReader<'a>, OptionError> {
        for (k, _) in given.iter() {
            if !specs.iter().any(|s| s.key == k) {
                return Err(OptionError::UnknownOption {
                    game,
                    key: k.to_string(),
                });
            }
        }
        Ok(OptionReader { game, specs, given })
    }

    fn spec(&self, key: &str) -> &'static OptionSpec {
        self.specs
            .iter()
            .find(|s| s.key == key)
            .unwrap_or_else(|| panic!("{}: option `{key}` is not in the spec", self.game))
    }

    /// The value text for `key` (the given one, else the default).
    pub fn raw(&self, key: &str) -> &str {
        self.given.get(key).unwrap_or(self.spec(key).default)
    }

    /// Whether `key` was given explicitly.
    pub fn given(&self, key: &str) -> bool {
        self.given.get(key).is_some()
    }

    fn bad(&self, key: &str) -> OptionError {
        OptionError::BadValue {
            key: key.to_string(),
            value: self.raw(key).to_string(),
            expected: self.spec(key).values.to_string(),
        }
    }

    /// An integer in `min..=max`; `None` if the value is `unset`.
    ///
    /// # Errors
    /// [`OptionError::BadValue`] if not an integer in range.
    pub fn int(&self, key: &str, min: i64, max: i64) -> Result<Option<i64>, OptionError> {
        let raw = self.raw(key);
        if raw == "unset" {
            return Ok(None);
        }
        match raw.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(self.bad(key)),
        }
    }

    /// One of `choices`, returned as its index.
    ///
    /// # Errors
    /// [`OptionError::BadValue`] if the value is not one of them.
    pub fn choice(&self, key: &str, choices: &[&str]) -> Result<usize, OptionError> {
        let raw = self.raw(key);
        choices
            .iter()
            .position(|c| *c == raw)
            .ok_or_else(|| self.bad(key))
    }

    /// `true` or `false`.
    ///
    /// # Errors
    /// [`OptionError::BadValue`] otherwise.
    pub fn bool(&self, key: &str) -> Result<bool, OptionError> {
        match self.raw(key) {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(self.bad(key)),
        }
    }

    /// Every option with its effective value, for logs and `whistle play`.
    pub fn resolved(&self) -> Options {
        let mut out = Options::new();
        for s in self.specs {
            out.set(s.key, self.raw(s.key));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[OptionSpec] = &[
        OptionSpec {
            key: "target",
            default: "300",
            values: "1..=10000",
            doc: "",
        },
        OptionSpec {
            key: "hands",
            default: "unset",
            values: "1..=1000",
            doc: "",
        },
        OptionSpec {
            key: "mode",
            default: "a",
            values: "a|b",
            doc: "",
        },
    ];

    #[test]
    fn defaults_values_and_errors() {
        let given = Options::parse(&["target=100", "mode=b"]).unwrap();
        let r = OptionReader::new("g", SPECS, &given).unwrap();
        assert_eq!(r.int("target", 1, 10000).unwrap(), Some(100));
        assert_eq!(r.int("hands", 1, 1000).unwrap(), None);
        assert_eq!(r.choice("mode", &["a", "b"]).unwrap(), 1);
        assert_eq!(r.resolved().to_string(), "hands=unset mode=b target=100");

        let bad = Options::parse(&["target=0"]).unwrap();
        let r = OptionReader::new("g", SPECS, &bad).unwrap();
        assert!(r.int("target", 1, 10000).is_err());
        let unknown = Options::parse(&["colour=red"]).unwrap();
        assert!(OptionReader::new("g", SPECS, &unknown).is_err());
        assert!(Options::parse(&["novalue"]).is_err());
    }
}
