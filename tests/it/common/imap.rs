//! A real IMAP server for tests: Debian's Dovecot, one instance per test, with its own config,
//! passwd-file user and maildir in a temp dir, listening on a free loopback port (no TLS: loopback
//! is where plain IMAP is allowed). `.ci/run` installs it (`dovecot-imapd`); without it the tests
//! fail, saying so. Messages reach the mailbox by IMAP APPEND from the test, as a mail client
//! would put them there. Optionally XOAUTH2, checked by Dovecot against a token introspection URL
//! (a wiremock server in the test).

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const USER: &str = "sales@dealers.test";
pub const PASSWORD: &str = "app-password-1234";

pub struct Dovecot {
    pub port: u16,
    dir: PathBuf,
    child: Child,
}

fn binary() -> PathBuf {
    for p in ["/usr/sbin/dovecot", "/usr/local/sbin/dovecot"] {
        if Path::new(p).exists() {
            return PathBuf::from(p);
        }
    }
    panic!(
        "Dovecot is not installed: the mailbox sync tests need a real IMAP server. \
         Install it with `apt-get install -y dovecot-imapd` (.ci/run does)."
    );
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

fn id(args: &[&str]) -> String {
    let out = Command::new("id").args(args).output().expect("run id");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

impl Dovecot {
    /// Password logins for [`USER`] / [`PASSWORD`].
    pub fn start() -> Dovecot {
        Self::start_with(None)
    }

    /// Also XOAUTH2: Dovecot posts the bearer token to `introspection_url` and accepts it when the
    /// answer says `{"active": true, "email": USER}`.
    pub fn start_with_oauth(introspection_url: &str) -> Dovecot {
        Self::start_with(Some(introspection_url))
    }

    fn start_with(introspection_url: Option<&str>) -> Dovecot {
        let bin = binary();
        let mut last = String::new();
        // The port is free when picked; another process may take it before Dovecot binds it.
        for _ in 0..3 {
            match Self::try_start(&bin, introspection_url) {
                Ok(d) => return d,
                Err(e) => last = e,
            }
        }
        panic!("Dovecot did not start: {last}");
    }

    fn try_start(bin: &Path, introspection_url: Option<&str>) -> Result<Dovecot, String> {
        let port = free_port();
        let dir = std::env::temp_dir().join(format!(
            "prospector_imap_{}",
            ulid::Ulid::new().to_string().to_lowercase()
        ));
        for sub in ["run", "state", "mail"] {
            std::fs::create_dir_all(dir.join(sub)).map_err(|e| e.to_string())?;
        }
        // Root runs Dovecot's own unprivileged users (the package's `dovecot` and `dovenull`);
        // anyone else runs it rootless, every process as themselves.
        let root = id(&["-u"]) == "0";
        let (login_user, internal_user, mail_user) = if root {
            (
                "dovenull".to_string(),
                "dovecot".to_string(),
                "dovecot".to_string(),
            )
        } else {
            let me = id(&["-un"]);
            (me.clone(), me.clone(), me)
        };
        if root {
            use std::os::unix::fs::PermissionsExt;
            let uid: u32 = id(&["-u", "dovecot"])
                .parse()
                .map_err(|_| "no dovecot user")?;
            let gid: u32 = id(&["-g", "dovecot"])
                .parse()
                .map_err(|_| "no dovecot group")?;
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))
                .map_err(|e| e.to_string())?;
            std::os::unix::fs::chown(dir.join("mail"), Some(uid), Some(gid))
                .map_err(|e| e.to_string())?;
        }
        std::fs::write(dir.join("passwd"), format!("{USER}:{{PLAIN}}{PASSWORD}\n"))
            .map_err(|e| e.to_string())?;
        let d = dir.display();
        let (mechanisms, oauth_passdb) = match introspection_url {
            Some(url) => {
                std::fs::write(
                    dir.join("oauth2.conf.ext"),
                    format!(
                        "introspection_mode = post\nintrospection_url = {url}\n\
                         username_attribute = email\nactive_attribute = active\nactive_value = true\n"
                    ),
                )
                .map_err(|e| e.to_string())?;
                (
                    "plain login xoauth2 oauthbearer",
                    format!(
                        "passdb {{\n  driver = oauth2\n  mechanisms = xoauth2 oauthbearer\n  args = {d}/oauth2.conf.ext\n}}\n"
                    ),
                )
            }
            None => ("plain login", String::new()),
        };
        let conf = format!(
            "base_dir = {d}/run
state_dir = {d}/state
instance_name = prospector-imap-{port}
log_path = {d}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = {mechanisms}
default_login_user = {login_user}
default_internal_user = {internal_user}
first_valid_uid = 1
mail_location = maildir:{d}/mail/%u
{oauth_passdb}passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {d}/passwd
}}
userdb {{
  driver = static
  args = uid={mail_user} gid={mail_user} home={d}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service stats {{
  inet_listener http {{
    port = 0
  }}
}}
"
        );
        let conf_path = dir.join("dovecot.conf");
        std::fs::write(&conf_path, conf).map_err(|e| e.to_string())?;
        let child = Command::new(bin)
            .arg("-F")
            .arg("-c")
            .arg(&conf_path)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run dovecot: {e}"))?;
        let mut server = Dovecot { port, dir, child };
        let deadline = Instant::now() + Duration::from_secs(15);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = server.child.try_wait() {
                return Err(format!("dovecot exited ({status}): {}", server.log()));
            }
            if server.ready() {
                return Ok(server);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err(format!("dovecot not ready in 15 s: {}", server.log()))
    }

    /// Its log, for failure messages.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("dovecot.log")).unwrap_or_default()
    }

    /// Greets with "ready" once its login and auth processes are up.
    fn ready(&self) -> bool {
        let Ok(stream) = TcpStream::connect(("127.0.0.1", self.port)) else {
            return false;
        };
        stream.set_read_timeout(Some(Duration::from_secs(2))).ok();
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        for _ in 0..3 {
            line.clear();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return false;
            }
            if line.contains("ready") {
                return true;
            }
        }
        false
    }

    /// A logged-in session of the test's own (plain IMAP, tagged commands).
    pub fn session(&self) -> Session {
        let stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect to dovecot");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut s = Session {
            reader: BufReader::new(stream.try_clone().unwrap()),
            stream,
            tag: 0,
        };
        // Skip the greeting(s) up to "ready".
        loop {
            let line = s.line();
            if line.contains("ready") {
                break;
            }
        }
        s.ok(&format!("LOGIN \"{USER}\" \"{PASSWORD}\""));
        s
    }

    /// Puts a message into `folder` (APPEND), as delivery would.
    pub fn append(&self, folder: &str, message: &str) {
        let mut s = self.session();
        s.append(folder, message);
        s.ok("LOGOUT");
    }
}

impl Drop for Dovecot {
    fn drop(&mut self) {
        // The master stops its children on SIGTERM; kill() sends SIGKILL, so ask politely first.
        let _ = Command::new("kill")
            .arg(self.child.id().to_string())
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A minimal IMAP client for the test's side (APPEND, CREATE, DELETE, STATUS).
pub struct Session {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
    tag: u32,
}

impl Session {
    fn line(&mut self) -> String {
        let mut line = String::new();
        self.reader.read_line(&mut line).expect("read from dovecot");
        assert!(!line.is_empty(), "dovecot closed the connection");
        line
    }

    fn finish(&mut self, tag: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            if line.starts_with(&format!("{tag} ")) {
                assert!(
                    line.starts_with(&format!("{tag} OK")),
                    "IMAP command failed: {line}"
                );
                return lines;
            }
            lines.push(line);
        }
    }

    fn next_tag(&mut self) -> String {
        self.tag += 1;
        format!("t{}", self.tag)
    }

    /// Runs one command; its untagged answers.
    pub fn ok(&mut self, command: &str) -> Vec<String> {
        let tag = self.next_tag();
        write!(self.stream, "{tag} {command}\r\n").unwrap();
        self.finish(&tag)
    }

    pub fn append(&mut self, folder: &str, message: &str) {
        let body = message.replace("\r\n", "\n").replace('\n', "\r\n");
        let tag = self.next_tag();
        // LITERAL+: no wait for the server's go-ahead.
        write!(
            self.stream,
            "{tag} APPEND \"{folder}\" {{{}+}}\r\n",
            body.len()
        )
        .unwrap();
        self.stream.write_all(body.as_bytes()).unwrap();
        self.stream.write_all(b"\r\n").unwrap();
        self.finish(&tag);
    }

    /// The folder's UIDVALIDITY.
    pub fn uid_validity(&mut self, folder: &str) -> u32 {
        let lines = self.ok(&format!("STATUS \"{folder}\" (UIDVALIDITY)"));
        lines
            .iter()
            .find_map(|l| {
                let at = l.find("UIDVALIDITY ")?;
                l[at + 12..]
                    .trim_end_matches([')', '\r', '\n'])
                    .trim()
                    .parse()
                    .ok()
            })
            .expect("UIDVALIDITY in STATUS")
    }
}
