//! The connections of a distributed God's run: made by ksolve rather than by timely, so
//! that a run whose processes do not all come, do not agree, or die part way through
//! ends with an error that names the process at fault instead of waiting for ever or
//! panicking.
//!
//! Timely's own start-up connects process `p` to every process below it and accepts
//! every process above it, retrying without end and printing `awaiting connections`
//! on standard output; once running, a lost connection panics its network threads,
//! which poisons every worker. Here the same pattern of connections is made under a
//! deadline ([`connect`]), each connection begins with a handshake ([`Hello`]) that
//! checks that both ends run the same definition, metric, process and worker counts
//! and table layout, and the sockets handed to timely are wrapped ([`Link`]): a read or
//! write that fails, or a connection that ends before timely's own end-of-stream
//! message, records the loss in a [`Watch`] instead of returning the error (which timely
//! turns into a panic). Writes to a lost process are then discarded and reads from it
//! never return, so timely's threads neither panic nor finish; the workers see the
//! loss in the watch at their next step and stop with [`GodError::Lost`], and the run
//! leaves those threads behind (the process is about to report and exit).

use super::GodError;
use crate::progress::Progress;
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use timely::communication::allocator::zero_copy::stream::Stream;
use timely::communication::networking::MessageHeader;

/// What both ends of a connection must agree on, sent by each as its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hello {
    /// This process (`-p`).
    pub process: u64,
    /// Processes in the run (`-n`).
    pub processes: u64,
    /// Worker threads per process (`-w`).
    pub threads: u64,
    /// The definition's meaning ([`super::database::puzzle_key`]).
    pub puzzle: u64,
    /// 0 for HTM, 1 for QTM.
    pub metric: u64,
    /// Everything else the table's layout depends on (the checkpoint key).
    pub layout: u64,
}

/// The first bytes of a handshake: "ksolve god, distributed", and the protocol version.
const MAGIC: &[u8; 8] = b"ksolvegd";
const VERSION: u64 = 1;
/// A handshake's length: the magic, the version and the six fields of [`Hello`].
const HELLO_BYTES: usize = 8 + 7 * 8;

impl Hello {
    fn encode(&self) -> [u8; HELLO_BYTES] {
        let mut out = [0u8; HELLO_BYTES];
        out[..8].copy_from_slice(MAGIC);
        let fields = [
            VERSION,
            self.process,
            self.processes,
            self.threads,
            self.puzzle,
            self.metric,
            self.layout,
        ];
        for (k, v) in fields.iter().enumerate() {
            out[8 + 8 * k..16 + 8 * k].copy_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// The peer's handshake, or why the bytes are none.
    fn decode(bytes: &[u8; HELLO_BYTES]) -> Result<Hello, String> {
        if &bytes[..8] != MAGIC {
            return Err(
                "it did not answer as a ksolve god process (is something else \
                        listening there?)"
                    .into(),
            );
        }
        let field = |k: usize| {
            u64::from_le_bytes(bytes[8 + 8 * k..16 + 8 * k].try_into().expect("8 bytes"))
        };
        if field(0) != VERSION {
            return Err(format!(
                "it speaks version {} of the handshake, this process version {VERSION} \
                 (another ksolve release?)",
                field(0)
            ));
        }
        Ok(Hello {
            process: field(1),
            processes: field(2),
            threads: field(3),
            puzzle: field(4),
            metric: field(5),
            layout: field(6),
        })
    }

    /// What differs between this process's handshake and a peer's, in words.
    fn differs(&self, peer: &Hello) -> Option<String> {
        let metric = |m: u64| if m == 0 { "HTM" } else { "QTM" };
        if peer.processes != self.processes {
            Some(format!(
                "it runs with -n {}, this process with -n {}",
                peer.processes, self.processes
            ))
        } else if peer.threads != self.threads {
            Some(format!(
                "it runs with -w {}, this process with -w {}",
                peer.threads, self.threads
            ))
        } else if peer.puzzle != self.puzzle {
            Some("it runs another definition".into())
        } else if peer.metric != self.metric {
            Some(format!(
                "it counts in {}, this process in {}",
                metric(peer.metric),
                metric(self.metric)
            ))
        } else if peer.layout != self.layout {
            Some("its table has another layout (another ksolve release?)".into())
        } else {
            None
        }
    }
}

/// Which connections have been lost, shared by the network threads and the workers.
pub(crate) struct Watch {
    addresses: Vec<String>,
    lost: Vec<AtomicBool>,
    any: AtomicBool,
    /// The first loss: the process and why.
    first: Mutex<Option<(usize, String)>>,
}

impl Watch {
    pub(crate) fn new(addresses: Vec<String>) -> Watch {
        Watch {
            lost: addresses.iter().map(|_| AtomicBool::new(false)).collect(),
            addresses,
            any: AtomicBool::new(false),
            first: Mutex::new(None),
        }
    }

    fn lose(&self, process: usize, why: String) {
        self.lost[process].store(true, Ordering::SeqCst);
        let mut first = self.first.lock().unwrap_or_else(|e| e.into_inner());
        if first.is_none() {
            *first = Some((process, why));
        }
        self.any.store(true, Ordering::SeqCst);
    }

    fn is_lost(&self, process: usize) -> bool {
        self.lost[process].load(Ordering::SeqCst)
    }

    /// The error for the first lost connection, if one was lost.
    pub(crate) fn failure(&self) -> Option<GodError> {
        if !self.any.load(Ordering::SeqCst) {
            return None;
        }
        let first = self.first.lock().unwrap_or_else(|e| e.into_inner());
        first.as_ref().map(|(p, why)| GodError::Lost {
            process: *p,
            address: self.addresses[*p].clone(),
            why: why.clone(),
        })
    }
}

/// Where a reader stands in timely's stream of messages: each is a header (whose
/// `length` field counts the payload bytes after it) and a payload; a header of length
/// 0 ends the stream. Only after that end is the connection's closing expected.
#[derive(Clone, Debug, Default)]
struct Framing {
    /// The bytes of a header read so far.
    header: Vec<u8>,
    /// Payload bytes still to come.
    payload: usize,
    ended: bool,
}

impl Framing {
    /// The length of timely's message header.
    fn header_len() -> usize {
        MessageHeader {
            channel: 0,
            source: 0,
            target_lower: 0,
            target_upper: 0,
            length: 0,
            seqno: 0,
        }
        .header_bytes()
    }

    fn feed(&mut self, mut bytes: &[u8]) {
        let need = Self::header_len();
        while !bytes.is_empty() && !self.ended {
            if self.payload > 0 {
                let n = self.payload.min(bytes.len());
                self.payload -= n;
                bytes = &bytes[n..];
                continue;
            }
            let n = (need - self.header.len()).min(bytes.len());
            self.header.extend_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
            if self.header.len() == need {
                // `MessageHeader::try_read` wants the payload too; the length is the
                // fifth field, big-endian (`MessageHeader::write_to`).
                let length = u64::from_be_bytes(self.header[32..40].try_into().expect("8 bytes"));
                match usize::try_from(length) {
                    Ok(0) => self.ended = true,
                    Ok(n) => self.payload = n,
                    Err(_) => self.payload = usize::MAX,
                }
                self.header.clear();
            }
        }
    }
}

/// A connection to one process, as timely's network threads use it (see the module
/// documentation): failures are recorded in the [`Watch`], never returned.
pub(crate) struct Link {
    stream: TcpStream,
    peer: usize,
    watch: Arc<Watch>,
    framing: Framing,
}

impl Link {
    /// Records the loss and blocks this (network) thread for good: an error or an end
    /// of stream returned to timely would panic it.
    fn lost_for_good(&self, why: String) -> ! {
        self.watch.lose(self.peer, why);
        loop {
            std::thread::park();
        }
    }
}

impl Read for Link {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.stream.read(buf) {
                Ok(0) if self.framing.ended || buf.is_empty() => return Ok(0),
                Ok(0) => self.lost_for_good("it closed the connection".into()),
                Ok(n) => {
                    self.framing.feed(&buf[..n]);
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => self.lost_for_good(e.to_string()),
            }
        }
    }
}

impl Write for Link {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // Bytes for a lost process go nowhere; saying so would panic timely's thread.
        while !self.watch.is_lost(self.peer) {
            match self.stream.write(buf) {
                Ok(0) if !buf.is_empty() => {
                    self.watch.lose(self.peer, "it stopped taking data".into());
                }
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => self.watch.lose(self.peer, e.to_string()),
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.watch.is_lost(self.peer) {
            if let Err(e) = self.stream.flush() {
                self.watch.lose(self.peer, e.to_string());
            }
        }
        Ok(())
    }
}

impl Stream for Link {
    fn try_clone(&self) -> io::Result<Self> {
        Ok(Link {
            stream: self.stream.try_clone()?,
            peer: self.peer,
            watch: Arc::clone(&self.watch),
            framing: Framing::default(),
        })
    }

    fn set_nonblocking(&self, nonblocking: bool) -> io::Result<()> {
        self.stream.set_nonblocking(nonblocking)
    }

    fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        // Shutting down a connection already lost (or closed by its process after its
        // own end of stream) is nothing to report.
        let _ = self.stream.shutdown(how);
        Ok(())
    }
}

/// How to connect: every process's address (the host file's lines), this process,
/// what to agree on and by when.
pub(crate) struct Plan<'a> {
    pub addresses: &'a [String],
    pub hello: Hello,
    pub deadline: Duration,
}

impl Plan<'_> {
    fn me(&self) -> usize {
        self.hello.process as usize
    }

    /// "process 2 (node3:2101)", for messages.
    fn name(&self, p: usize) -> String {
        format!("process {p} ({})", self.addresses[p])
    }

    fn late(&self, p: usize, what: &str) -> GodError {
        GodError::Distributed(format!(
            "{} {what} within {} s (--connect-timeout): is it running, with the same \
             host file?",
            self.name(p),
            self.deadline.as_secs()
        ))
    }
}

/// Connects to every other process of the run, as timely would (to each process below
/// this one; from each above), each connection checked by a handshake, all within the
/// plan's deadline. Returns one stream per process (`None` for this one) and the watch
/// their [`Link`]s report to.
pub(crate) fn connect(
    plan: &Plan,
    progress: &dyn Progress,
) -> Result<(Vec<Option<Link>>, Arc<Watch>), GodError> {
    let start = Instant::now();
    let until = start + plan.deadline;
    let me = plan.me();
    let n = plan.addresses.len();
    // Listen first, so that the processes above can connect (into the backlog) while
    // this one still connects to those below.
    let listener = TcpListener::bind(plan.addresses[me].as_str()).map_err(|e| {
        GodError::Distributed(format!(
            "cannot listen on {} (line {} of the host file, for -p {me}): {e}",
            plan.addresses[me],
            me + 1
        ))
    })?;
    progress.start(
        &format!("connecting to {} other process(es)", n - 1),
        Some(n as u64 - 1),
    );
    let mut streams: Vec<Option<TcpStream>> = (0..n).map(|_| None).collect();
    for (p, slot) in streams.iter_mut().enumerate().take(me) {
        let stream = dial(plan, p, until)?;
        *slot = Some(shake(plan, stream, Some(p), until)?.1);
        progress.inc(1);
    }
    listener
        .set_nonblocking(true)
        .map_err(|e| GodError::Distributed(format!("cannot listen: {e}")))?;
    while streams[me + 1..].iter().any(Option::is_none) {
        match listener.accept() {
            Ok((stream, _)) => {
                let (p, stream) = shake(plan, stream, None, until)?;
                if p <= me || streams[p].is_some() {
                    return Err(GodError::Distributed(format!(
                        "a connection says it is {}, which {}",
                        plan.name(p),
                        if p <= me {
                            "this process connects to itself: is -p the same twice?"
                        } else {
                            "is connected already: is -p the same twice?"
                        }
                    )));
                }
                streams[p] = Some(stream);
                progress.inc(1);
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if Instant::now() >= until {
                    let missing = (me + 1..n).find(|&p| streams[p].is_none()).unwrap_or(me);
                    return Err(plan.late(missing, "did not connect"));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                return Err(GodError::Distributed(format!(
                    "cannot accept connections on {}: {e}",
                    plan.addresses[me]
                )))
            }
        }
    }
    progress.finish();
    let watch = Arc::new(Watch::new(plan.addresses.to_vec()));
    let links = streams
        .into_iter()
        .enumerate()
        .map(|(peer, s)| {
            s.map(|stream| Link {
                stream,
                peer,
                watch: Arc::clone(&watch),
                framing: Framing::default(),
            })
        })
        .collect();
    Ok((links, watch))
}

/// Connects to process `p`, trying again until the deadline (it may not listen yet).
fn dial(plan: &Plan, p: usize, until: Instant) -> Result<TcpStream, GodError> {
    let mut last = String::from("no attempt");
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(plan.late(p, &format!("did not answer (last: {last})")));
        }
        let attempt = left.min(Duration::from_secs(2));
        let addrs: Vec<SocketAddr> = match plan.addresses[p].to_socket_addrs() {
            Ok(a) => a.collect(),
            Err(e) => {
                last = e.to_string();
                Vec::new()
            }
        };
        for a in addrs {
            match TcpStream::connect_timeout(&a, attempt) {
                Ok(s) => return Ok(s),
                Err(e) => last = e.to_string(),
            }
        }
        std::thread::sleep(left.min(Duration::from_millis(100)));
    }
}

/// The handshake on a new connection: both ends send their [`Hello`] and check the
/// other's. `expect` is the process dialled (`None` for an accepted connection, whose
/// handshake says which it is). Returns the peer's process and the stream, blocking and
/// with no timeout, as timely's threads expect.
fn shake(
    plan: &Plan,
    mut stream: TcpStream,
    expect: Option<usize>,
    until: Instant,
) -> Result<(usize, TcpStream), GodError> {
    let who = match expect {
        Some(p) => plan.name(p),
        None => format!(
            "a process connecting from {}",
            stream
                .peer_addr()
                .map_or_else(|_| "an unknown address".into(), |a| a.to_string())
        ),
    };
    let fail = |why: String| GodError::Distributed(format!("{who}: {why}"));
    let left = until.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(fail(format!(
            "no handshake within {} s (--connect-timeout)",
            plan.deadline.as_secs()
        )));
    }
    let setup = |s: &TcpStream| -> io::Result<()> {
        s.set_nonblocking(false)?;
        s.set_nodelay(true)?;
        s.set_read_timeout(Some(left))?;
        s.set_write_timeout(Some(left))
    };
    setup(&stream).map_err(|e| fail(e.to_string()))?;
    stream
        .write_all(&plan.hello.encode())
        .map_err(|e| fail(format!("cannot send the handshake: {e}")))?;
    let mut bytes = [0u8; HELLO_BYTES];
    stream.read_exact(&mut bytes).map_err(|e| {
        fail(match e.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => format!(
                "no handshake within {} s (--connect-timeout): is something else \
                 listening there?",
                plan.deadline.as_secs()
            ),
            io::ErrorKind::UnexpectedEof => {
                "it closed the connection during the handshake".to_string()
            }
            _ => format!("the handshake failed: {e}"),
        })
    })?;
    let peer = Hello::decode(&bytes).map_err(fail)?;
    let p = peer.process as usize;
    if p >= plan.addresses.len() || expect.is_some_and(|e| e != p) {
        return Err(fail(format!(
            "it says it is process {p} (-p {p}): expected {}, by the host file",
            expect.map_or_else(
                || format!("a process below {}", plan.addresses.len()),
                |e| e.to_string()
            )
        )));
    }
    if let Some(why) = plan.hello.differs(&peer) {
        return Err(GodError::Distributed(format!(
            "{}: {why}: every process must run the same definition, metric, -n and -w",
            plan.name(p)
        )));
    }
    let clear = |s: &TcpStream| -> io::Result<()> {
        s.set_read_timeout(None)?;
        s.set_write_timeout(None)
    };
    clear(&stream).map_err(|e| fail(e.to_string()))?;
    Ok((p, stream))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(channel: usize, payload: &[u8]) -> Vec<u8> {
        let h = MessageHeader {
            channel,
            source: 1,
            target_lower: 0,
            target_upper: 1,
            length: payload.len(),
            seqno: 7,
        };
        let mut out = Vec::new();
        h.write_to(&mut out).unwrap();
        out.extend_from_slice(payload);
        out
    }

    #[test]
    fn framing_sees_the_end_only_at_the_empty_header() {
        // Payloads that look like headers (zeros) must not be taken for the end.
        let mut stream = message(3, &[0u8; 100]);
        stream.extend(message(4, &[0u8; 48]));
        stream.extend(message(0, &[]));
        for chunk in [1, 5, 47, 48, 49, 1000] {
            let mut f = Framing::default();
            let pieces: Vec<&[u8]> = stream.chunks(chunk).collect();
            for (k, piece) in pieces.iter().enumerate() {
                f.feed(piece);
                assert_eq!(
                    f.ended,
                    k + 1 == pieces.len(),
                    "chunks of {chunk}, piece {k}"
                );
            }
        }
    }

    fn hello(process: u64) -> Hello {
        Hello {
            process,
            processes: 2,
            threads: 1,
            puzzle: 11,
            metric: 0,
            layout: 13,
        }
    }

    #[test]
    fn hellos_read_back_and_name_what_differs() {
        let h = hello(1);
        assert_eq!(Hello::decode(&h.encode()), Ok(h));
        assert_eq!(h.differs(&hello(0)), None);
        let n = Hello { processes: 3, ..h };
        assert_eq!(
            h.differs(&n).unwrap(),
            "it runs with -n 3, this process with -n 2"
        );
        let q = Hello { metric: 1, ..h };
        assert!(h.differs(&q).unwrap().contains("QTM"));
        let d = Hello { puzzle: 12, ..h };
        assert!(h.differs(&d).unwrap().contains("another definition"));
        let mut junk = h.encode();
        junk[0] = b'G';
        assert!(Hello::decode(&junk)
            .unwrap_err()
            .contains("not answer as a ksolve"));
    }

    /// Two free ports on 127.0.0.1, bound and released.
    fn two_addresses() -> Vec<String> {
        let ls: Vec<_> = (0..2)
            .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
            .collect();
        ls.iter()
            .map(|l| l.local_addr().unwrap().to_string())
            .collect()
    }

    #[test]
    fn a_process_that_never_comes_is_named_at_the_deadline() {
        let addresses = two_addresses();
        for me in [0, 1] {
            let plan = Plan {
                addresses: &addresses,
                hello: hello(me),
                deadline: Duration::from_millis(300),
            };
            let e = connect(&plan, &crate::progress::Silent)
                .err()
                .unwrap()
                .to_string();
            let other = 1 - me;
            assert!(
                e.contains(&format!("process {other} ({})", addresses[other as usize])),
                "{e}"
            );
            assert!(e.contains("within 0 s (--connect-timeout)"), "{e}");
        }
    }

    #[test]
    fn a_listener_that_does_not_answer_is_refused_at_the_deadline() {
        // Something else listens where process 0 should: it accepts and says nothing.
        let foreign = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut addresses = two_addresses();
        addresses[0] = foreign.local_addr().unwrap().to_string();
        let plan = Plan {
            addresses: &addresses,
            hello: hello(1),
            deadline: Duration::from_millis(300),
        };
        let e = connect(&plan, &crate::progress::Silent)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("process 0"), "{e}");
        assert!(e.contains("is something else listening there?"), "{e}");
    }

    #[test]
    fn processes_that_disagree_both_say_why() {
        let addresses = two_addresses();
        let other = addresses.clone();
        let peer = std::thread::spawn(move || {
            let plan = Plan {
                addresses: &other,
                hello: Hello {
                    processes: 3,
                    ..hello(1)
                },
                deadline: Duration::from_secs(20),
            };
            connect(&plan, &crate::progress::Silent)
                .err()
                .unwrap()
                .to_string()
        });
        let plan = Plan {
            addresses: &addresses,
            hello: hello(0),
            deadline: Duration::from_secs(20),
        };
        let mine = connect(&plan, &crate::progress::Silent)
            .err()
            .unwrap()
            .to_string();
        assert!(
            mine.contains("process 1")
                && mine.contains("it runs with -n 3, this process with -n 2"),
            "{mine}"
        );
        let theirs = peer.join().unwrap();
        assert!(
            theirs.contains("process 0")
                && theirs.contains("it runs with -n 2, this process with -n 3"),
            "{theirs}"
        );
    }

    #[test]
    fn agreeing_processes_connect() {
        let addresses = two_addresses();
        let other = addresses.clone();
        let peer = std::thread::spawn(move || {
            let plan = Plan {
                addresses: &other,
                hello: hello(1),
                deadline: Duration::from_secs(20),
            };
            connect(&plan, &crate::progress::Silent).map(|(l, _)| l.len())
        });
        let plan = Plan {
            addresses: &addresses,
            hello: hello(0),
            deadline: Duration::from_secs(20),
        };
        let (links, watch) = connect(&plan, &crate::progress::Silent).unwrap();
        assert!(links[0].is_none() && links[1].is_some());
        assert!(watch.failure().is_none());
        assert_eq!(peer.join().unwrap().unwrap(), 2);
    }
}
