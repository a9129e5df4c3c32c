//! Errors: an MLIR-style diagnostic with the location of the op that failed.

use std::fmt;

/// A failed run: where (`file:line:col` of the op, when known) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct RunError {
    pub location: Option<String>,
    pub message: String,
}

impl RunError {
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            location: None,
            message: message.into(),
        }
    }

    pub fn at(location: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            location: Some(location.into()),
            message: message.into(),
        }
    }

    /// A failure MLIR has already reported (a parse or verifier error,
    /// through the context's diagnostic handler): nothing more to print.
    pub fn reported() -> Self {
        Self {
            location: None,
            message: String::new(),
        }
    }

    /// Whether this is [`RunError::reported`].
    pub fn is_reported(&self) -> bool {
        self.location.is_none() && self.message.is_empty()
    }

    /// Sets the location unless one is already known.
    pub fn located(mut self, location: &str) -> Self {
        if self.location.is_none() {
            self.location = Some(location.to_string());
        }
        self
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(location) => write!(f, "{location}: error: {}", self.message),
            None => write!(f, "pto-run: error: {}", self.message),
        }
    }
}

/// `Err(RunError::new(format!(...)))`.
#[macro_export]
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::error::RunError::new(format!($($arg)*)))
    };
}

pub type Result<T> = std::result::Result<T, RunError>;
