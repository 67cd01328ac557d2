//! What a shell reports ([`ReadEvent`], [`ReadFailure`]) and what it is told to do next ([`Next`]).

labelled_enum! {
    /// The kind of a failed read, as far as a shell can tell it.
    ReadFailure {
        /// The peer reset the connection.
        Reset = "reset",
        /// The shell's own I/O timeout fired (a backstop behind the core's deadlines).
        Timeout = "timeout",
        /// TLS failed: a certificate, a handshake, a record.
        Tls = "tls",
        /// Nothing listens at the address: the connection was refused.
        Refused = "refused",
        /// The host name did not resolve.
        NotResolved = "not_resolved",
        /// Anything else: a body cut short, what a browser does not name.
        Other = "other",
    }
}

impl ReadFailure {
    /// What it was, for people: the first words of the record's transport detail, which
    /// `judge::unreached` reads back.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            ReadFailure::Reset => "the connection was reset",
            ReadFailure::Timeout => "a read timed out",
            ReadFailure::Tls => "TLS failed",
            ReadFailure::Refused => "the connection was refused",
            ReadFailure::NotResolved => "the host name did not resolve",
            ReadFailure::Other => "the request failed",
        }
    }
}

/// What a shell saw, reported in the order it saw it.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadEvent<'a> {
    /// The response head: the status and the headers as received (a repeated header stays repeated;
    /// a browser joins them, which reads the same).
    Head {
        /// The HTTP status.
        status: u16,
        /// The headers, in order, as received.
        headers: Vec<(String, String)>,
    },
    /// A browser's opaque redirect (`redirect: "manual"`): a 3xx whose status and target it hides.
    OpaqueRedirect,
    /// A chunk of the body.
    Chunk(&'a [u8]),
    /// The body ended.
    End,
    /// A read (or the request itself) failed.
    Failed {
        /// What kind of failure, as far as the shell can tell.
        kind: ReadFailure,
        /// The platform's words for it.
        detail: String,
    },
    /// The one timer the shell armed for [`Next::ReadOn`] fired (early or late: the core decides).
    Timer,
    /// The user or the run cancelled the request.
    Cancel,
}

/// What the shell does next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Next {
    /// Keep reading; (re)arm the one timer for this moment on the shell's clock.
    ReadOn {
        /// When to report [`ReadEvent::Timer`] if nothing else happened.
        until_ms: f64,
    },
    /// The ending is decided: let go of the request (abort the fetch, cancel the stream, stop
    /// waiting), report nothing more, and take the record with
    /// [`RequestReader::finish`](super::request::RequestReader::finish).
    Stop,
}
