//! [`Proc`]: a child process that cannot outlive its test.

use std::{
    fmt,
    process::{ExitStatus, Stdio},
    sync::{Arc, Mutex},
    time::Duration,
};

use tokio::{
    io::{AsyncBufReadExt, AsyncRead, BufReader},
    process::{Child, Command},
    sync::mpsc,
    task::JoinHandle,
    time::timeout,
};

/// A running child process with its stdout and stderr collected. Dropping it
/// kills the process (also when the test panics), so no test leaves a bot or a
/// referee behind.
pub struct Proc {
    name: String,
    child: Child,
    stdout: Arc<Mutex<String>>,
    stderr: Arc<Mutex<String>>,
    lines: mpsc::UnboundedReceiver<String>,
    collectors: Vec<JoinHandle<()>>,
    status: Option<ExitStatus>,
}

impl fmt::Debug for Proc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Proc")
            .field("name", &self.name)
            .field("status", &self.status)
            .finish_non_exhaustive()
    }
}

impl Proc {
    /// Starts `cmd` (stdin closed, stdout and stderr piped and collected)
    /// under the name `name` for messages. Must be called inside a Tokio
    /// runtime.
    ///
    /// # Panics
    /// If the process cannot be started.
    pub fn spawn(name: impl Into<String>, cmd: &mut Command) -> Proc {
        let name = name.into();
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        let stdout = Arc::new(Mutex::new(String::new()));
        let stderr = Arc::new(Mutex::new(String::new()));
        let (tx, lines) = mpsc::unbounded_channel();
        let out = child.stdout.take().expect("piped stdout");
        let err = child.stderr.take().expect("piped stderr");
        let collectors = vec![
            tokio::spawn(collect(out, stdout.clone(), Some(tx))),
            tokio::spawn(collect(err, stderr.clone(), None)),
        ];
        Proc {
            name,
            child,
            stdout,
            stderr,
            lines,
            collectors,
            status: None,
        }
    }

    /// Sends `signal` (a name `kill` knows: `TERM`, `INT`, `KILL`) to the
    /// process.
    ///
    /// # Panics
    /// If the process is gone or `kill` fails.
    pub fn signal(&self, signal: &str) {
        let pid = self.child.id().expect("the process is running");
        let ok = std::process::Command::new("kill")
            .args([format!("-{signal}"), pid.to_string()])
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "{}: kill -{signal} {pid} failed", self.name);
    }

    /// The process id, while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// The name given at [`Proc::spawn`].
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The exit code, once [`Proc::wait`] has seen the process exit (`None`
    /// before, or when a signal ended it).
    pub fn code(&self) -> Option<i32> {
        self.status.and_then(|s| s.code())
    }

    /// Everything the process wrote to stdout so far.
    pub fn stdout(&self) -> String {
        self.stdout.lock().expect("stdout buffer").clone()
    }

    /// Everything the process wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().expect("stderr buffer").clone()
    }

    /// Waits up to `limit` for the next stdout line that satisfies `pred`,
    /// skipping the others.
    ///
    /// # Panics
    /// If no such line comes in time, or stdout closes first.
    pub async fn line(&mut self, limit: Duration, pred: impl Fn(&str) -> bool) -> String {
        let found = timeout(limit, async {
            while let Some(line) = self.lines.recv().await {
                if pred(&line) {
                    return Some(line);
                }
            }
            None
        })
        .await;
        match found {
            Ok(Some(line)) => line,
            Ok(None) => panic!(
                "{}: stdout closed before the expected line\n{}",
                self.name,
                self.dump()
            ),
            Err(_) => panic!(
                "{}: no expected line within {limit:?}\n{}",
                self.name,
                self.dump()
            ),
        }
    }

    /// Waits up to `limit` for the process to exit, and for its output to
    /// be collected.
    ///
    /// # Panics
    /// If it is still running then (it is killed when the guard drops).
    pub async fn wait(&mut self, limit: Duration) -> ExitStatus {
        if let Some(s) = self.status {
            return s;
        }
        let status = match timeout(limit, self.child.wait()).await {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => panic!("{}: cannot wait: {e}", self.name),
            Err(_) => panic!(
                "{}: still running after {limit:?}\n{}",
                self.name,
                self.dump()
            ),
        };
        self.status = Some(status);
        // The pipes close when the process exits; the collectors finish
        // soon after.
        for c in self.collectors.drain(..) {
            let _ = timeout(limit, c).await;
        }
        status
    }

    /// The process's name, exit status and output, for failure messages.
    pub fn dump(&self) -> String {
        format!(
            "--- {} ({:?}) stdout ---\n{}--- {} stderr ---\n{}",
            self.name,
            self.status,
            self.stdout(),
            self.name,
            self.stderr()
        )
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if self.status.is_none() {
            let _ = self.child.start_kill();
        }
    }
}

async fn collect(
    pipe: impl AsyncRead + Unpin,
    buffer: Arc<Mutex<String>>,
    lines: Option<mpsc::UnboundedSender<String>>,
) {
    let mut reader = BufReader::new(pipe).lines();
    while let Ok(Some(line)) = reader.next_line().await {
        {
            let mut b = buffer.lock().expect("output buffer");
            b.push_str(&line);
            b.push('\n');
        }
        if let Some(tx) = &lines {
            let _ = tx.send(line);
        }
    }
}
